/**
 * Syntax highlighting for fenced code blocks, loaded lazily: lowlight (highlight.js grammars,
 * output as a hast tree) and each language's grammar arrive as their own chunks, fetched in idle
 * time the first time a block of that language is shown. Until then the block shows plain text.
 *
 * Highlighting only wraps runs of the code in `<span class="hljs-…">`: the text nodes, joined,
 * are exactly the code, so the rendered-text stream (and every citation into code) is the same
 * before and after highlighting. `codeHighlight.test.ts` pins that for every grammar.
 *
 * No language, or one we do not ship a grammar for, stays plain: no auto-detection (it runs
 * every grammar over the code, is slow on long blocks and often wrong on short ones).
 */
import type { ElementContent, Root } from "hast";
import type { LanguageFn } from "highlight.js";
import type { createLowlight } from "lowlight";
import { requestIdle } from "../ui/idle.ts";
import { createSignal } from "../ui/signal.ts";

type Lowlight = ReturnType<typeof createLowlight>;
type GrammarModule = { default: LanguageFn };

/**
 * The grammars we ship, by highlight.js name. Each is its own chunk (a few kB), so a thread
 * with only TypeScript fetches only that one.
 */
const GRAMMARS: Record<string, () => Promise<GrammarModule>> = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  graphql: () => import("highlight.js/lib/languages/graphql"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scss: () => import("highlight.js/lib/languages/scss"),
  shell: () => import("highlight.js/lib/languages/shell"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
};

/** Other fence names people write, to the grammar that highlights them. */
const ALIASES: Record<string, string> = {
  sh: "bash",
  zsh: "bash",
  console: "shell",
  shellsession: "shell",
  h: "c",
  "c++": "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  "c#": "csharp",
  patch: "diff",
  docker: "dockerfile",
  golang: "go",
  gql: "graphql",
  toml: "ini",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsonc: "json",
  json5: "json",
  kt: "kotlin",
  kts: "kotlin",
  make: "makefile",
  mk: "makefile",
  md: "markdown",
  py: "python",
  python3: "python",
  rb: "ruby",
  rs: "rust",
  postgres: "sql",
  postgresql: "sql",
  sqlite: "sql",
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  html: "xml",
  xhtml: "xml",
  svg: "xml",
  yml: "yaml",
};

/** The grammar name for a fence's language (`ts` → `typescript`), or null when we have none. */
export function highlightLanguageOf(fence: string | null | undefined): string | null {
  if (!fence) return null;
  const name = fence.toLowerCase();
  if (Object.hasOwn(GRAMMARS, name)) return name;
  return Object.hasOwn(ALIASES, name) ? ALIASES[name]! : null;
}

let lowlight: Lowlight | null = null;
let lowlightLoading: Promise<Lowlight> | null = null;
const loadingGrammars = new Map<string, Promise<void>>();
const grammarLoaded = createSignal();

function loadLowlight(): Promise<Lowlight> {
  lowlightLoading ??= import("lowlight").then(({ createLowlight }) => {
    lowlight = createLowlight();
    return lowlight;
  });
  return lowlightLoading;
}

/** True once `language` (a grammar name) can be highlighted synchronously. */
export function isHighlightLanguageReady(language: string): boolean {
  return lowlight?.registered(language) === true;
}

/**
 * Loads lowlight and the grammar of `language` (a grammar name) if they are not loaded yet, and
 * tells subscribers once it can be highlighted. A failed load (offline) leaves the code plain and
 * may be retried by the next block that asks.
 */
export function loadHighlightLanguage(language: string): Promise<void> {
  if (isHighlightLanguageReady(language)) return Promise.resolve();
  const load = GRAMMARS[language];
  if (load === undefined) return Promise.resolve();
  let pending = loadingGrammars.get(language);
  if (pending === undefined) {
    pending = Promise.all([loadLowlight(), load()])
      .then(([instance, grammar]) => {
        instance.register(language, grammar.default);
        grammarLoaded.notify();
      })
      .finally(() => loadingGrammars.delete(language));
    loadingGrammars.set(language, pending);
  }
  return pending;
}

/**
 * Asks for `language` in idle time, so the first rows of a thread render and paint before the
 * highlighter's chunks are fetched and compiled. Errors stay quiet: the code stays plain.
 */
export function requestHighlightLanguage(language: string): void {
  if (isHighlightLanguageReady(language) || loadingGrammars.has(language)) return;
  requestIdle(() => {
    loadHighlightLanguage(language).catch(() => {});
  }, 500);
}

/** Subscribes to "a grammar finished loading" (for `useSyncExternalStore`). */
export function subscribeHighlightLanguages(listener: () => void): () => void {
  return grammarLoaded.subscribe(listener);
}

/**
 * Longer code stays plain: highlighting is linear but not free (about 1 ms per 2,000 characters
 * of TypeScript), and it runs while a row renders.
 */
export const MAX_HIGHLIGHT_CHARS = 20_000;

/** Highlighted trees of recent blocks: rows remount while scrolling, code rarely changes. */
const cache = new Map<string, ElementContent[] | null>();
const CACHE_LIMIT = 500;

function joinedText(nodes: readonly Root["children"][number][]): string {
  let text = "";
  for (const node of nodes) {
    if (node.type === "text") text += node.value;
    else if (node.type === "element") text += joinedText(node.children);
  }
  return text;
}

/**
 * The highlighted hast children of `code` in `language` (a loaded grammar name), or null when
 * the grammar is not loaded, the code is too long to highlight, or the grammar would change its
 * text. The joined text of the result is exactly `code`.
 */
export function highlightCode(language: string, code: string): ElementContent[] | null {
  if (lowlight === null || !lowlight.registered(language)) return null;
  if (code.length > MAX_HIGHLIGHT_CHARS) return null;
  const key = `${language}\u0000${code}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const tree: Root = lowlight.highlight(language, code);
  // A grammar may alter the text at the edges of an unfinished construct (scss turns "[" into
  // "[\n"): such code stays plain, so what is cited is always exactly what the model wrote.
  const children = joinedText(tree.children) === code ? (tree.children as ElementContent[]) : null;
  cache.set(key, children);
  if (cache.size > CACHE_LIMIT) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return children;
}

/** Every grammar name we ship (for tests). */
export const HIGHLIGHT_LANGUAGES: readonly string[] = Object.keys(GRAMMARS);
