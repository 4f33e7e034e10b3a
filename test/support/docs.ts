// Small pve-docs pages for the docs loading tests, in the markup asciidoc gives the real ones
// (see ../shared/pve/docs/SOURCE.md): a SYNOPSIS of commands, then sections with examples.
export interface FixtureCommand {
  command: string;
  args?: string[];
  options?: string[];
  description: string;
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function commandBlock(c: FixtureCommand): string {
  const id = `cli_${c.command.replace(/[ -]/g, "_")}`;
  const args = (c.args ?? []).map((a) => `&lt;${a}&gt;`).join(" ");
  const terms = [
    ...(c.args ?? []).map(
      (a) => `<span class="monospaced">&lt;${a}&gt;</span>: <span class="monospaced">&lt;string&gt;</span>`,
    ),
    ...(c.options ?? []).map(
      (o) => `<span class="monospaced">--${o}</span> <span class="monospaced">&lt;string&gt;</span>`,
    ),
  ];
  return `<div class="paragraph" id="${id}">\r
\r
<p><strong>${c.command}</strong> <span class="monospaced">${args}</span> <span class="monospaced">[OPTIONS]</span> <a class="headerlink" href="#${id}" title="Permalink to this heading"></a>\r
</p>\r
</div>\r
<div class="paragraph">\r
\r
<p>${escape(c.description)}</p>\r
</div>\r
${
  terms.length
    ? `<div class="dlist"><dl>\r\n${terms.map((t) => `<dt class="hdlist1">\r\n${t}\r\n</dt>\r\n<dd>\r\n<p>\r\nSomething.\r\n</p>\r\n</dd>`).join("\r\n")}\r\n</dl></div>\r\n`
    : ""
}`;
}

/** A man page: the SYNOPSIS with these commands, then a section with one example per `examples` entry. */
export function manPage(
  binary: string,
  commands: FixtureCommand[],
  examples: { paragraph: string; line: string }[] = [],
): string {
  return `<!DOCTYPE html>\r
<html lang="en">\r
<head><meta name="generator" content="AsciiDoc 10.2.0"><title>${binary}(1)</title></head>\r
<body class="manpage">\r
<div id="header"><h1>${binary}(1)</h1></div>\r
<div class="sect1">\r
<h2 id="_synopsis">\r
SYNOPSIS\r
 <a class="headerlink" href="#_synopsis" title="Permalink to this heading"></a>\r
</h2>\r
<div class="sectionbody">\r
<div class="paragraph" id="cli_${binary}">\r
\r
<p><strong>${binary}</strong> <span class="monospaced">&lt;COMMAND&gt; [ARGS] [OPTIONS]</span></p>\r
</div>\r
${commands.map(commandBlock).join("")}</div>\r
</div>\r
<div class="sect1">\r
<h2 id="_examples">\r
Usage Examples\r
</h2>\r
<div class="sectionbody">\r
${examples
  .map(
    (e) => `<div class="paragraph">\r
\r
<p>${escape(e.paragraph)}</p>\r
</div>\r
<div class="listingblock">\r
<div class="content monospaced">\r
<pre># ${escape(e.line)}</pre>\r
</div></div>\r
`,
  )
  .join("")}</div>\r
</div>\r
</body>\r
</html>\r
`;
}

/** Pages for the small fixture schema (MINI_API): qm and pct commands whose descriptions are its endpoints'. */
export const FIXTURE_DOCS: Record<string, string> = {
  "qm.1.html": manPage(
    "qm",
    [
      {
        command: "qm stop",
        args: ["vmid"],
        description:
          "Stop virtual machine. The qemu process will exit immediately. This is akin to pulling the power plug of a running computer.",
      },
      {
        command: "qm listsnapshot",
        args: ["vmid"],
        description: "List all snapshots.",
      },
      { command: "qm terminal", args: ["vmid"], description: "Open a terminal using a serial device." },
    ],
    [{ paragraph: "Pull the plug on a guest that hangs, the hard way:", line: "qm stop 100" }],
  ),
  "pct.1.html": manPage("pct", [{ command: "pct start", args: ["vmid"], description: "Start the container." }]),
};
export const FIXTURE_DOC_PAGES = Object.keys(FIXTURE_DOCS);
