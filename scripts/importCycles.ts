// Finds import cycles in apps/ and packages/ (`pnpm cycles`, part of `pnpm run check`).
// A cycle means two modules cannot be understood, tested or moved apart, so none is allowed, type-only
// imports included. Imports are resolved by TypeScript itself, so workspace packages (`@app/...`)
// count as edges to their source files.
// Two levels are checked: files, and the folders of FOLDER_ROOTS (a folder such as `timeline/` may
// use `markdown/`, or the other way round, never both). Tests and benchmarks are left out of the
// folder level: they may exercise two folders together.
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const roots = ["apps", "packages"];
/** Source roots whose first-level folders must not import each other in a circle. */
const FOLDER_ROOTS = ["apps/web/src"];

function sourceFiles(): string[] {
  const listed = execFileSync(
    "git",
    ["ls-files", "--cached", "--others", "--exclude-standard", ...roots],
    { cwd: root, encoding: "utf8" },
  );
  return listed
    .split("\n")
    .filter((file) => /\.(ts|tsx|mts|cts)$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => path.join(root, file))
    .filter((file) => existsSync(file)); // a deleted file stays listed until staged
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

/** Strongly connected components with more than one file (or a file importing itself): Tarjan. */
function cycles(graph: Map<string, string[]>): string[][] {
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
function loopThrough(start: string, graph: Map<string, string[]>, members: Set<string>): string[] {
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
function folderGraph(fileGraph: Map<string, string[]>, sourceRoot: string): Map<string, string[]> {
  const base = realpathSync(path.join(root, sourceRoot));
  const folderOf = (file: string): string | null => {
    const inside = path.relative(base, file);
    if (inside.startsWith("..") || /\.(test|bench)\.tsx?$/.test(file)) return null;
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

const files = sourceFiles().map((file) => realpathSync(file));
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
const relative = (file: string) => path.relative(root, file);
const levels = [
  { name: "files", graph },
  ...FOLDER_ROOTS.map((sourceRoot) => ({
    name: `folders of ${sourceRoot}`,
    graph: folderGraph(graph, sourceRoot),
  })),
];

let failed = 0;
for (const level of levels) {
  for (const component of cycles(level.graph)) {
    failed += 1;
    const loop = loopThrough(component.sort()[0]!, level.graph, new Set(component));
    console.error(`import cycle between ${level.name}: ${loop.map(relative).join(" -> ")}`);
  }
}
if (failed > 0) {
  console.error(`import cycles: ${failed} found`);
  process.exit(1);
}
console.log(`import cycles: none among ${files.length} files in ${roots.join(", ")}`);
