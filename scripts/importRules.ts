// The one checker of the import rules (CONTRIBUTING "Layering"): no import cycle between files
// of apps/ and packages/ nor between the folders of FOLDER_ROOTS, and no import in a forbidden
// direction (LAYER_RULES). `pnpm cycles` (scripts/importCycles.ts) runs it over the repository;
// apps/server/src/layers.test.ts holds the server's layers to it and checks that every rule
// catches the direction it forbids.
//
// Imports are resolved by TypeScript itself, so workspace packages (`@app/...`) count as edges to
// their source files; type-only imports count too. A cycle means two modules cannot be
// understood, tested or moved apart. Tests and benchmarks are left out of the folder level and of
// the layer rules: they may exercise two folders or layers together.
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const root = path.resolve(import.meta.dirname, "..");
export const SOURCE_ROOTS = ["apps", "packages"];
/** Source roots whose first-level folders must not import each other in a circle. */
export const FOLDER_ROOTS = ["apps/web/src"];

/** Imports from files under `from` may not reach files under any of `forbidden` (repository paths). */
export type LayerRule = { from: string; forbidden: readonly string[]; why: string };

const SERVER = "apps/server/src/";

/** Every forbidden direction the docs claim, each with the reason it is forbidden. */
export const LAYER_RULES: readonly LayerRule[] = [
  {
    from: "packages/",
    forbidden: ["apps/"],
    why: "apps import packages, never the other way",
  },
  {
    from: "packages/citations/",
    forbidden: ["packages/markdown/", "packages/protocol/"],
    why: "the kernel imports nothing of ours",
  },
  {
    from: "packages/protocol/",
    forbidden: ["packages/citations/", "packages/markdown/"],
    why: "the wire shapes import nothing of ours",
  },
  {
    from: "packages/markdown/",
    forbidden: ["packages/protocol/"],
    why: "the Markdown pipeline imports only @app/citations of ours",
  },
  { from: "apps/web/", forbidden: ["apps/server/"], why: "the web app never imports server code" },
  { from: "apps/server/", forbidden: ["apps/web/"], why: "the server never imports web code" },
  {
    from: `${SERVER}http/`,
    forbidden: [`${SERVER}storage/`],
    why: "transport sees only DomainErrors, never the store",
  },
  {
    from: `${SERVER}domain/`,
    forbidden: [`${SERVER}http/`],
    why: "the domain raises DomainErrors and never knows HTTP",
  },
  {
    from: `${SERVER}storage/`,
    forbidden: [`${SERVER}domain/`, `${SERVER}http/`, `${SERVER}providers/`],
    why: "storage is the bottom layer",
  },
  {
    from: `${SERVER}providers/`,
    forbidden: [`${SERVER}domain/`, `${SERVER}http/`, `${SERVER}storage/`],
    why: "adapters know only their ProviderAdapter contract",
  },
];

/** A file's path relative to the repository, with `/` separators. */
export function repoPath(file: string): string {
  return path.relative(root, file).split(path.sep).join("/");
}

/** Tests and benchmarks: left out of the folder level and the layer rules. */
export function isTestFile(file: string): boolean {
  return /\.(test|spec|bench)\.tsx?$/.test(file) || /\.test-d\.ts$/.test(file);
}

function sourceFiles(): string[] {
  const listed = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", ...SOURCE_ROOTS],
    { cwd: root, encoding: "utf8" },
  );
  return listed
    .split("\n")
    .filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => path.join(root, file))
    .filter((file) => existsSync(file)) // a deleted file stays listed until staged
    .map((file) => realpathSync(file));
}

const options: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};

function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(ts.sys.readFile(file) ?? "", true, true);
  const targets = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
    if (resolved === undefined) continue;
    const target = realpathSync(resolved.resolvedFileName);
    if (known.has(target)) targets.add(target);
  }
  return [...targets];
}

/** The import graph of every source file of apps/ and packages/ (absolute paths). */
export function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One concrete loop inside a component, for the message: a breadth-first path back to its start. */
export function loopThrough(
  start: string,
  graph: Map<string, string[]>,
  members: Set<string>,
): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(previous.get(loop[0]!)!);
        return [...loop, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

/** The graph between the first-level folders under `sourceRoot`, from the non-test files. */
export function folderGraph(
  fileGraph: Map<string, string[]>,
  sourceRoot: string,
): Map<string, string[]> {
  const base = realpathSync(path.join(root, sourceRoot));
  const folderOf = (file: string): string | null => {
    const inside = path.relative(base, file);
    if (inside.startsWith("..") || isTestFile(file)) return null;
    const [first, ...rest] = inside.split(path.sep);
    return rest.length > 0 ? path.join(base, first!) : null;
  };
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of fileGraph) {
    const from = folderOf(file);
    if (from === null) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** Every cycle, at every level, as a readable loop of repository paths. */
export function cycleMessages(graph: Map<string, string[]>): string[] {
  const levels = [
    { name: "files", graph },
    ...FOLDER_ROOTS.map((sourceRoot) => ({
      name: `folders of ${sourceRoot}`,
      graph: folderGraph(graph, sourceRoot),
    })),
  ];
  const messages: string[] = [];
  for (const level of levels) {
    for (const component of cycles(level.graph)) {
      const loop = loopThrough(component.sort()[0]!, level.graph, new Set(component));
      messages.push(`import cycle between ${level.name}: ${loop.map(repoPath).join(" -> ")}`);
    }
  }
  return messages;
}

/**
 * Every import of a non-test file in a direction `rules` forbid, as `from -> to (why)`. Edges are
 * given as repository paths, so a rule can be checked on a made-up edge too.
 */
export function layerViolations(
  edges: Iterable<readonly [from: string, to: string]>,
  rules: readonly LayerRule[] = LAYER_RULES,
): string[] {
  const broken: string[] = [];
  for (const [from, to] of edges) {
    if (isTestFile(from)) continue;
    for (const rule of rules) {
      if (!from.startsWith(rule.from)) continue;
      if (rule.forbidden.some((layer) => to.startsWith(layer))) {
        broken.push(`${from} -> ${to} (${rule.why})`);
      }
    }
  }
  return broken;
}

/** The edges of `graph` as repository paths. */
export function edgesOf(graph: Map<string, string[]>): [string, string][] {
  return [...graph].flatMap(([from, targets]) =>
    targets.map((to): [string, string] => [repoPath(from), repoPath(to)]),
  );
}
