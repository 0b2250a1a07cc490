/**
 * The kernel (`@app/citations`) is the only owner of the citation link syntax: no app source
 * file spells the scheme or matches links with its own pattern (issue 13). Tests may.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const appsDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === "node_modules" || entry.name === "dist") return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.tsx?$/.test(entry.name) && !/\.(test|spec|bench)\.tsx?$/.test(entry.name);
    return isSource ? [path] : [];
  });
}

describe("citation link syntax ownership", () => {
  const files = sourceFiles(appsDir);

  it("finds the app sources", () => {
    const names = files.map((file) => relative(appsDir, file));
    expect(names).toContain(join("web", "src", "markdown", "MarkdownLink.tsx"));
    expect(names).toContain(join("server", "src", "titles.ts"));
  });

  it("leaves the scheme and link patterns to @app/citations", () => {
    const offenders = files.filter((file) => {
      const text = readFileSync(file, "utf8");
      return /t3-citation/i.test(text) || /\\\[Assistant quote\\\]/.test(text);
    });
    expect(offenders.map((file) => relative(appsDir, file))).toEqual([]);
  });
});
