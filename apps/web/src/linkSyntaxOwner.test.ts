/**
 * The kernel (`@app/citations`) is the only owner of the citation link syntax: no source file
 * outside it (the apps and the other packages) spells the scheme, builds the link opener
 * `[Assistant quote](` itself (as a literal, a template string or a concatenation with
 * `ASSISTANT_CITATION_LABEL`) or matches links with its own pattern (issues 13 and 34). They
 * import `ASSISTANT_CITATION_LINK_OPENER` and the kernel's functions instead. Tests may spell it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const roots = ["apps", "packages"].map((name) => join(repoDir, name));
const kernelDir = join(repoDir, "packages", "citations");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "dist") return [];
    const path = join(dir, entry.name);
    if (path === kernelDir) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.(test|spec|bench)\.tsx?$/.test(entry.name);
    return isSource ? [path] : [];
  });
}

/** Spellings of the link syntax only the kernel may write, anywhere in a file (comments too). */
const OWNED_SPELLINGS: readonly RegExp[] = [
  // The scheme, in any case.
  /t3-citation/i,
  // A link pattern: the label escaped for a regular expression.
  /\\\[Assistant quote\\\]/,
];

/** Spellings of the link opener only the kernel may build, in code (docs may quote it). */
const OWNED_OPENERS: readonly RegExp[] = [
  // The opener as a string literal: "[Assistant quote](", '...', `...`.
  /["'`]\[Assistant quote\]\(/,
  // The opener built from the label: `[${ASSISTANT_CITATION_LABEL}](`.
  /\$\{\s*ASSISTANT_CITATION_LABEL\s*\}\]\(/,
  // The opener concatenated: "[" + ASSISTANT_CITATION_LABEL + "](".
  /ASSISTANT_CITATION_LABEL\s*\+\s*["'`]\]\(/,
];

/** The code of a source file: block comments and whole-line `//` comments left out. */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("//"))
    .join("\n");
}

function spellsLinkSyntax(text: string): boolean {
  if (OWNED_SPELLINGS.some((pattern) => pattern.test(text))) return true;
  const code = codeOf(text);
  return OWNED_OPENERS.some((pattern) => pattern.test(code));
}

describe("citation link syntax ownership", () => {
  const files = roots.flatMap((root) => sourceFiles(root));

  it("finds the sources of the apps and the other packages, not the kernel's", () => {
    const names = files.map((file) => relative(repoDir, file));
    expect(names).toContain(join("apps", "web", "src", "markdown", "MarkdownLink.tsx"));
    expect(names).toContain(join("apps", "server", "src", "titles.ts"));
    expect(names).toContain(join("packages", "markdown", "src", "citationLinksInText.ts"));
    expect(names.some((name) => name.startsWith(join("packages", "citations")))).toBe(false);
  });

  it("catches every spelling of the syntax, template strings included", () => {
    const spellings = [
      'const scheme = "T3-Citation:";',
      "const pattern = /\\[Assistant quote\\]\\(([^)]*)\\)/g;",
      'const opener = "[Assistant quote](";',
      "const opener = `[Assistant quote](`;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text a file would hold
      "const opener = `[${ASSISTANT_CITATION_LABEL}](`;",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text a file would hold
      "const opener = `[${ ASSISTANT_CITATION_LABEL }](`;",
      'const opener = "[" + ASSISTANT_CITATION_LABEL + "](";',
    ];
    for (const spelling of spellings) expect(spellsLinkSyntax(spelling), spelling).toBe(true);
    expect(spellsLinkSyntax("/** Holds a chip's link (`[Assistant quote](…)`). */")).toBe(false);
    expect(
      spellsLinkSyntax("import { ASSISTANT_CITATION_LINK_OPENER } from '@app/citations';"),
    ).toBe(false);
  });

  it("leaves the scheme, the opener and link patterns to @app/citations", () => {
    const offenders = files.filter((file) => spellsLinkSyntax(readFileSync(file, "utf8")));
    expect(offenders.map((file) => relative(repoDir, file))).toEqual([]);
  });
});
