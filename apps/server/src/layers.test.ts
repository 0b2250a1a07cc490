/**
 * The server's import rules (README "Layers and their rules"), read from the source: imports go
 * one way, http → domain → storage, and no module of `src/` imports itself through others.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname);

/** Every non-test module of src/, by path relative to src/. */
function modules(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return /\.ts$/.test(entry.name) && !/\.(test|bench)\.ts$/.test(entry.name)
      ? [relative(SRC, path)]
      : [];
  });
}

/** The modules of src/ that `file` imports (type-only imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"/g)];
  return specifiers.map((m) => relative(SRC, resolve(dirname(join(SRC, file)), m[1]!)));
}

const graph = new Map(modules().map((file) => [file, importsOf(file)]));

describe("server layers", () => {
  it("finds the modules and their imports", () => {
    expect(graph.get("http/app.ts")).toContain("domain/errors.ts");
  });

  it("keeps http away from storage, and storage away from domain, providers and http", () => {
    const broken: string[] = [];
    for (const [file, imports] of graph) {
      for (const target of imports) {
        if (file.startsWith("http/") && target.startsWith("storage/"))
          broken.push(`${file} → ${target}`);
        if (file.startsWith("storage/") && /^(domain|http|providers)\//.test(target)) {
          broken.push(`${file} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      path.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === "open") {
          cycles.push([...path.slice(path.indexOf(target)), target].join(" → "));
        } else if (!state.has(target) && graph.has(target)) {
          visit(target);
        }
      }
      path.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
