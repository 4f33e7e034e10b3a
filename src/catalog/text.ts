/** Text helpers shared by the index and the describe output. */

/** Lower-case words of a text: runs of letters and digits ("cloud-init" -> cloud, init). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Splits camelCase and letter/digit boundaries before `words` (keepActive -> keep, active). */
export function identifierWords(name: string): string[] {
  return words(name.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/\[n\]/g, ""));
}

/** A name without case, spaces or punctuation: "Node ID" is `nodeid`, "--dry-run" is `dryrun`. */
export function compactName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The particles of separable phrasal verbs ("turn it off", "throw the snapshot away"). */
export const PARTICLES = new Set(["on", "off", "up", "down", "back", "away", "out"]);
/** Words that negate ("not backed up"). */
export const NEGATIONS = new Set(["not", "no", "never", "non"]);

/** Words that carry no meaning for finding an endpoint. */
export const STOPWORDS = new Set(
  (
    "a an the of on to for in into at by with from as about over under via per " +
    "is are be been being was were am do does did doing done has have had having " +
    "i me my we us our you your it its this that these those there here " +
    "he him his she her hers they them their theirs itself themselves myself ourselves yourself " +
    "what which who whom whose how when where why whether " +
    "and or but if then than so also just only very too all whole entire " +
    "can could should would will shall may might must please want need like " +
    "some any each every other another such same own different various " +
    "one two three four five six seven eight nine ten " +
    "get gets got right now currently along its it's s t proxmox pve exist exists " +
    // What is left of a negative contraction once its "t" is split off ("don't", "isn't", "won't").
    "don doesn didn isn aren wasn weren won wouldn shouldn couldn haven hasn hadn mustn needn"
  ).split(" "),
);

/**
 * Readable text from the schema's AsciiDoc-like markup: `code` loses its backticks,
 * `term`;; definition lists become "- term: text", hard-wrapped lines are joined and
 * {pve} is spelled out.
 */
export function markupToText(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .replace(/\{pve\}/g, "Proxmox VE")
    .replace(/^\[horizontal\]\s*$/gm, "")
    .split(/\n{2,}/);
  const out: string[] = [];
  let pendingTerm: string | undefined;
  for (const raw of paragraphs) {
    const lines = raw
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l.length > 0);
    if (lines.length === 0) continue;
    // A paragraph that is only "term;;" announces the next paragraph as its definition.
    if (lines.length === 1 && /;;$/.test(lines[0]!)) {
      pendingTerm = stripCode(lines[0]!.slice(0, -2).trim());
      continue;
    }
    if (lines.every((l) => l.includes(";;"))) {
      for (const line of lines) {
        const [term, ...rest] = line.split(";;");
        out.push(`- ${stripCode(term!.trim())}: ${stripCode(rest.join(";;").trim())}`);
      }
      continue;
    }
    const joined = stripCode(lines.join(" ").replace(/\s+/g, " "));
    if (pendingTerm !== undefined) {
      out.push(`- ${pendingTerm}: ${joined}`);
      pendingTerm = undefined;
    } else {
      out.push(joined);
    }
  }
  if (pendingTerm !== undefined) out.push(`- ${pendingTerm}`);
  return out.join("\n");
}

function stripCode(text: string): string {
  return text.replace(/`([^`\n]*)`/g, "$1");
}

/** The first sentence (or the first line), for one-line summaries. */
export function firstSentence(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}
