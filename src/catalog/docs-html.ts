// Reads the pve-docs HTML pages (man pages and admin guide chapters) into plain data: the
// CLI commands of each man page's SYNOPSIS and the example command lines of the prose with
// the words around them. The only module that parses docs HTML; cheerio is required here
// when the first page is parsed, so the server never loads it at startup (CONTRIBUTING.md:
// in the single-file bundle a dynamic import() would still evaluate it at startup).
import { definedAcronyms } from "./acronyms.ts";
import type { CliCommand, DocsDefinitions, DocsExample, DocsPage, DocsSection } from "./model.ts";

type Cheerio = typeof import("cheerio/slim");
type Root = ReturnType<Cheerio["load"]>;

/** The slim build is htmlparser2 alone, without parse5 and the encoding sniffers. */
function htmlParser(): Cheerio {
  return require("cheerio/slim") as Cheerio;
}

/** htmlparser2 in HTML mode: several times faster than parse5 on these large, well-formed pages. */
const PARSE_OPTIONS = { xml: { xmlMode: false, decodeEntities: true } } as const;

/** Most characters of prose kept around one example. */
const MAX_CONTEXT = 400;
/** Most examples kept per page (a bound against a page of nothing but command lines). */
const MAX_EXAMPLES = 2000;

/** Gives the event loop a turn between fragments, so a search is never held up long by parsing. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Parses one page. Only the parts that matter are handed to cheerio: the SYNOPSIS section
 * (everything up to the next `<div class="sect1">`), each example block with the paragraph
 * before it, and the section headings. That is a fraction of a page, and the event loop gets
 * a turn between the parts. Anything that is not a pve-docs page yields no commands and no
 * examples.
 */
export async function parseDocsPage(name: string, html: string): Promise<DocsPage> {
  const { load } = htmlParser();
  const commands = synopsis(load, html);
  await breathe();
  const headings = readHeadings(load, html);
  const examples = collectExamples(load, html, headings);
  await breathe();
  examples.push(...collectInlineCommands(load, html, headings));
  await breathe();
  const sections = collectSections(load, html, headings);
  await breathe();
  const definitions = [...collectDefinitions(load, html, headings), ...collectNestedLists(html)];
  return {
    name,
    commands,
    examples,
    sections,
    definitions,
    acronyms: definedAcronyms(html),
    ...tabledFiles(load, html),
  };
}

/** A file's name, maybe below folders, with placeholders and wildcards ("nodes/<NAME>/qemu-server/<VMID>.conf", "sdn/*"). */
const FILE_NAME = /^(?=[^\s]*[./])[\w.*<>/-]+$/;
/** A link's name: a folder of /etc/pve ("local", "qemu-server"). */
const LINK_NAME = /^[\w.-]+$/;
/** Most rows kept per page, and the longest table read (a bound against a page of nothing but tables). */
const MAX_FILES = 200;
const MAX_TABLE = 256 * 1024;

/**
 * The files a page's two-column tables name, one per row, with what the second cell says:
 * the pmxcfs chapter's "Files" of /etc/pve ("datacenter.cfg": "Proxmox VE datacenter-wide configuration
 * (keyboard layout, proxy, …)"), and its "Symbolic links", whose second cell is a path too
 * ("qemu-server": "nodes/<LOCAL_HOST_NAME>/qemu-server/"). Each table is found by asciidoc's fixed
 * markup and read by cheerio.
 */
function tabledFiles(load: Cheerio["load"], html: string): Pick<DocsPage, "files" | "fileLinks"> {
  const files: (readonly [string, string])[] = [];
  const fileLinks: (readonly [string, string])[] = [];
  for (let at = html.indexOf(TABLE_START); at >= 0; at = html.indexOf(TABLE_START, at + 1)) {
    const end = html.indexOf("</table>", at);
    if (end < 0) break;
    if (end - at > MAX_TABLE) continue;
    const $ = load(html.slice(at, end + "</table>".length), PARSE_OPTIONS, false);
    $("tr").each((_, row) => {
      const cells = $(row).children("td");
      if (cells.length !== 2 || !$(cells[0]).children("p").first().hasClass("monospaced")) return;
      const name = flat($(cells[0]).text());
      const second = $(cells[1]).children("p").first();
      const said = flat($(cells[1]).text());
      if (!said || files.length + fileLinks.length >= MAX_FILES) return;
      if (second.hasClass("monospaced") && LINK_NAME.test(name)) fileLinks.push([name, said.split(" ")[0]!]);
      else if (!second.hasClass("monospaced") && FILE_NAME.test(name)) files.push([name, said]);
    });
  }
  return { files, fileLinks };
}
const TABLE_START = '<table class="tableblock';

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** The SYNOPSIS section's HTML, if the page has one. */
function synopsisHtml(html: string): string | undefined {
  const heading = html.search(/<h2 id="_synopsis"/);
  if (heading < 0) return undefined;
  const start = html.lastIndexOf('<div class="sect1">', heading);
  const end = html.indexOf('<div class="sect1">', heading);
  return html.slice(start < 0 ? heading : start, end < 0 ? undefined : end);
}

/**
 * The SYNOPSIS: each command is a paragraph opening with `<strong>qm set</strong>`, then its
 * description paragraph (the API endpoint's own description, or "An alias for <em>X</em>."),
 * then a definition list of its arguments and options.
 */
function synopsis(load: Cheerio["load"], html: string): CliCommand[] {
  const section = synopsisHtml(html);
  if (!section) return [];
  const $ = load(section, PARSE_OPTIONS, false);
  const commands: CliCommand[] = [];
  let current: CliCommand | undefined;
  let described = false;
  $("div.paragraph, div.dlist").each((_, el) => {
    const block = $(el);
    if (block.hasClass("dlist")) {
      if (current) readOptions($, block, current);
      return;
    }
    const p = block.children("p").first();
    const lead = p.children().first();
    if (lead.is("strong") && p.contents().first().is(lead)) {
      const words = flat(lead.text()).split(" ");
      current = { command: words.join(" "), binary: words[0]!, args: [], options: [], description: "" };
      commands.push(current);
      described = false;
      for (const m of flat(p.text()).matchAll(/<([a-z][\w-]*)>/gi)) current.args.push(m[1]!);
      return;
    }
    if (current && !described) {
      described = true;
      const text = flat(p.text());
      const alias = /^An alias for (.+?)\.?$/.exec(text);
      const target = alias ? flat(p.find("em").first().text()) || alias[1]! : undefined;
      if (target) current.aliasOf = target;
      else current.description = text;
    }
  });
  return commands.filter((c) => c.description || c.aliasOf);
}

/** Option names (`--name`) and the values an argument takes when the page lists them (`<a | b>`). */
function readOptions($: Root, block: ReturnType<Root>, command: CliCommand): void {
  block.find("dt").each((_, dt) => {
    const text = flat($(dt).text());
    const option = /^--([\w-]+(?:\[n\])?)/.exec(text);
    if (option) {
      command.options.push(option[1]!.replace(/\[n\]$/, ""));
      return;
    }
    const arg = /^<([\w-]+)>: <([^<>]*\|[^<>]*)>/.exec(text);
    if (arg) (command.values ??= {})[arg[1]!] = arg[2]!.split("|").map((v) => v.trim());
  });
}

const HEADING = /<h([1-5])\b[^>]*>([\s\S]*?)<\/h\1>/g;

interface Heading {
  at: number;
  end: number;
  level: number;
  title: string;
}

/** The page's headings, in order, with where each starts and ends. */
function readHeadings(load: Cheerio["load"], html: string): Heading[] {
  return [...html.matchAll(HEADING)].map((m) => ({
    at: m.index,
    end: m.index + m[0].length,
    level: Number(m[1]),
    title: flat(load(m[2]!, PARSE_OPTIONS, false).root().text()),
  }));
}

/** Sections that are no topic of their own in a man page. */
const FRAME_TITLES = /^(NAME|SYNOPSIS|DESCRIPTION|Copyright and Disclaimer|Examples?)$/i;

/** Each section's title (with its parent's) and the paragraph that opens it. */
function collectSections(load: Cheerio["load"], html: string, headings: Heading[]): DocsSection[] {
  const out: DocsSection[] = [];
  const titles: string[] = [];
  headings.forEach((h, k) => {
    titles.length = h.level - 1;
    titles[h.level - 1] = h.title;
    if (h.level < 2 || FRAME_TITLES.test(h.title)) return;
    const stop = headings[k + 1]?.at ?? html.length;
    const start = html.indexOf(PARAGRAPH_START, h.end);
    if (start < 0 || start > stop) return;
    const close = html.indexOf("</div>", start);
    const text = flat(
      load(html.slice(start, close < 0 ? stop : Math.min(close, stop)), PARSE_OPTIONS, false)
        .root()
        .text(),
    );
    if (text)
      out.push({
        title: h.title,
        parent:
          titles
            .slice(0, h.level - 1)
            .filter(Boolean)
            .pop() ?? "",
        text: text.slice(0, MAX_CONTEXT),
      });
  });
  return out;
}
const EXAMPLE_BLOCK = /<div class="(?:listingblock|literalblock)">[\s\S]*?<\/pre>/g;
const PARAGRAPH_START = '<div class="paragraph"';
/** How far back from an example its paragraph may start. */
const PARAGRAPH_REACH = 4000;

/**
 * Example command lines (listing and literal blocks), each with the titles of its section and
 * the paragraph just before it. Headings and blocks are located by asciidoc's fixed markup and
 * each small piece is read by cheerio.
 */
function collectExamples(load: Cheerio["load"], html: string, headings: Heading[]): DocsExample[] {
  const text = (fragment: string) => load(fragment, PARSE_OPTIONS, false).root().text();
  const out: DocsExample[] = [];
  const sectionAt = sectionReader(headings);
  for (const m of html.matchAll(EXAMPLE_BLOCK)) {
    const { title, startsAt } = sectionAt(m.index);
    const commandLines = commandsOf(text(m[0]).split("\n"));
    if (commandLines.length === 0) continue;
    const paragraphAt = html.lastIndexOf(PARAGRAPH_START, m.index);
    const paragraph =
      paragraphAt >= 0 && paragraphAt > startsAt && m.index - paragraphAt <= PARAGRAPH_REACH
        ? flat(text(html.slice(paragraphAt, m.index))).slice(0, MAX_CONTEXT)
        : "";
    for (const c of commandLines) out.push({ ...c, title, paragraph });
    if (out.length >= MAX_EXAMPLES) break;
  }
  return out;
}

/**
 * For places read in page order: the titles of the section a place stands in (and of its
 * parent), and where that section's heading is.
 */
function sectionReader(headings: readonly Heading[]): (at: number) => { title: string; startsAt: number } {
  const titles: string[] = [];
  let next = 0;
  return (at) => {
    for (; next < headings.length && headings[next]!.at < at; next++) {
      const h = headings[next]!;
      titles.length = h.level - 1;
      titles[h.level - 1] = h.title;
    }
    return {
      title: titles.filter(Boolean).slice(-2).join(" / "),
      startsAt: next > 0 ? headings[next - 1]!.at : 0,
    };
  };
}

const PROMPT = /^\s*(?:#|\$|root@[^:\s]*:[^#$]*[#$])\s+/;
const COMMAND_WORD = /^[a-z][a-z0-9-]*$/;

/**
 * The lines of an example block that are commands: a command word with arguments ("qm set 100
 * --memory 4096"), or any line after a shell prompt ("# vgs"). A bare word without a prompt
 * is output or a file's content, and so is a line after a prompted one. A block that also has
 * commands without a prompt may use "#" for comments ("# create a new VM" above "qm create
 * 9000 ..."), and what follows its "#" is not known to be typed. A prompted command keeps the
 * names of the values printed after it ("Quorate:  Yes"), each once.
 */
function commandsOf(lines: readonly string[]): { line: string; prompted?: true; output?: string[] }[] {
  const mixed = lines.some((raw) => /^[a-z][a-z0-9-]* \S/.test(raw));
  const out: { line: string; prompted?: true; output?: string[] }[] = [];
  let afterPrompt = false;
  let last: { line: string; prompted?: true; output?: string[] } | undefined;
  for (const raw of lines) {
    const prompted = PROMPT.test(raw);
    afterPrompt ||= prompted;
    const line = flat(raw.replace(PROMPT, ""));
    // What a command prints names what it reads ("Quorate:  Yes" after `pvecm status`).
    const key = !prompted && last ? OUTPUT_KEY.exec(raw) : null;
    if (key) {
      const printed = (last!.output ??= []);
      const name = key[1]!.trim();
      if (printed.length < MAX_OUTPUT_KEYS && !printed.includes(name)) printed.push(name);
    }
    // Output after a prompted line that is no command ("# ./configure") is none of the last command's.
    if (prompted) last = undefined;
    if (line.length > 300 || !COMMAND_WORD.test(line.split(" ")[0]!)) continue;
    if (prompted && !mixed) {
      last = { line, prompted: true };
      out.push(last);
    } else if (line.includes(" ") && (mixed || !afterPrompt)) out.push({ line });
  }
  return out;
}

/** A line of a command's output that gives a value under a name ("Config Version:   3"). */
const OUTPUT_KEY = /^\s*([A-Za-z][A-Za-z ]{0,30}[A-Za-z]):\s+\S/;
/** Most names kept from one example's output. */
const MAX_OUTPUT_KEYS = 40;

/** An inline command in running text: a command word, then arguments with an option ("ifreload -a", "lsblk -o +FSTYPE"). */
const INLINE_COMMAND = /^[a-z][a-z0-9-]*(?: [^\s-]\S*)* --?[a-zA-Z][^\s]*(?: \S+)*$/;
const MONOSPACED = /<span class="monospaced">([^<]{3,120})<\/span>/g;
const PARAGRAPH = /<div class="paragraph">\s*<p>([\s\S]*?)<\/p>\s*<\/div>/g;

/**
 * Commands the prose names inline ("you can apply them by running ifreload -a"), each with the
 * titles of its section and the paragraph it stands in. They count as prompted: asciidoc
 * marks them as literal text, and the option says they are typed.
 */
function collectInlineCommands(load: Cheerio["load"], html: string, headings: Heading[]): DocsExample[] {
  const out: DocsExample[] = [];
  const sectionAt = sectionReader(headings);
  for (const p of html.matchAll(PARAGRAPH)) {
    const commands = [...p[1]!.matchAll(MONOSPACED)]
      .map((m) => flat(load(m[1]!, PARSE_OPTIONS, false).root().text()))
      .filter((c) => INLINE_COMMAND.test(c));
    if (commands.length === 0) continue;
    const { title } = sectionAt(p.index);
    const paragraph = flat(load(p[1]!, PARSE_OPTIONS, false).root().text()).slice(0, MAX_CONTEXT);
    for (const line of commands) out.push({ line, prompted: true, inline: true, title, paragraph });
    if (out.length >= MAX_EXAMPLES) break;
  }
  return out;
}

const DEFINITION_LIST = /<div class="hdlist"><table>[\s\S]*?<\/table><\/div>/g;
/** Most terms kept per section. */
const MAX_TERMS = 200;

/**
 * The terms that sections define one by one, in asciidoc's horizontal definition lists
 * (`<div class="hdlist">`, the term in its first cell), grouped by the section they stand in
 * ("Macro Definitions" of pve-firewall(8): Amanda, BGP, SSH…).
 */
function collectDefinitions(load: Cheerio["load"], html: string, headings: Heading[]): DocsDefinitions[] {
  const bySection = new Map<number, DocsDefinitions>();
  let next = 0;
  for (const m of html.matchAll(DEFINITION_LIST)) {
    while (next < headings.length && headings[next]!.at < m.index) next++;
    const heading = headings[next - 1];
    if (!heading) continue;
    const $ = load(m[0], PARSE_OPTIONS, false);
    const section = bySection.get(next - 1) ?? { title: heading.title, terms: [] };
    $("td.hdlist1").each((_, cell) => {
      const term = flat($(cell).text());
      if (term && section.terms.length < MAX_TERMS) section.terms.push(term);
    });
    if (section.terms.length > 0) bySection.set(next - 1, section);
  }
  return [...bySection.values()];
}

/** A term of a definition list whose definition holds a list of its own (pvesm's `content`: images, rootdir, …). */
const LIST_IN_TERM =
  /<dt class="hdlist1">\s*([a-z][a-z0-9_-]*)\s*<\/dt>\s*<dd>\s*(?:<p>(?:(?!<\/dd>)[\s\S])*?<\/p>\s*)?<div class="dlist"><dl>([\s\S]*?)<\/dl><\/div>/g;
const TERM = /<dt class="hdlist1">\s*([^<]+?)\s*<\/dt>/g;

/**
 * Terms defined inside the definition of another term ("content" in pvesm(1)'s "Common Storage
 * Properties": images, rootdir, vztmpl, backup, iso, snippets, import), each list titled by the
 * term it belongs to. Found by asciidoc's fixed markup; no cheerio needed.
 */
function collectNestedLists(html: string): DocsDefinitions[] {
  return [...html.matchAll(LIST_IN_TERM)]
    .map((m) => ({ title: m[1]!, terms: [...m[2]!.matchAll(TERM)].map((t) => flat(t[1]!)).slice(0, MAX_TERMS) }))
    .filter((list) => list.terms.length > 0);
}
