/**
 * The naive baseline for the side-by-side open (sideBySide.ts): the seeded thread exported
 * through the history API into one JSON file, and the small page in `baseline/` (a plain,
 * non-virtualized react-markdown list) built with the web app's own Vite, React and
 * react-markdown, served as static files from a port of its own.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT, type RigState } from "../../e2e/support/rig.ts";

/** A served baseline build. */
export interface BaselineSite {
  url: string;
  /** Messages in the exported thread. */
  messages: number;
  stop(): Promise<void>;
}

type ExportedMessage = { id: string; role: string; text: string };

/** Every message of the seeded thread, oldest first, read page by page through the API. */
export async function exportThread(rig: RigState): Promise<ExportedMessage[]> {
  const pages: ExportedMessage[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&before=${encodeURIComponent(cursor)}`;
    const response = await fetch(
      `${rig.baseURL}/api/threads/${rig.seededThreadId}/messages?limit=200${query}`,
    );
    if (!response.ok) throw new Error(`export: the history API answered ${response.status}`);
    const page = (await response.json()) as {
      messages: ExportedMessage[];
      nextCursor: string | null;
    };
    pages.unshift(page.messages.map(({ id, role, text }) => ({ id, role, text })));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return pages.flat();
}

/** Builds `baseline/` into `outDir` with the web app's Vite and React plugin. */
export async function buildBaseline(outDir: string): Promise<void> {
  const web = join(REPO_ROOT, "apps/web");
  const requireFromWeb = createRequire(join(web, "package.json"));
  const load = (name: string) => import(pathToFileURL(requireFromWeb.resolve(name)).href);
  const vite = (await load("vite")) as { build(config: object): Promise<unknown> };
  const react = (await load("@vitejs/plugin-react")) as { default(): unknown };
  const modules = join(web, "node_modules");
  await vite.build({
    root: join(REPO_ROOT, "scripts/perf/baseline"),
    base: "./",
    logLevel: "warn",
    configFile: false,
    plugins: [react.default()],
    resolve: {
      // The page's imports resolve from the web app's dependencies (the same versions).
      alias: [
        {
          find: /^(react|react-dom|react-markdown|remark-gfm)(\/.*)?$/,
          replacement: `${modules}/$1$2`,
        },
      ],
    },
    build: { outDir, emptyOutDir: true },
  });
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
};

/** Builds the page into `dir`, writes the exported thread next to it and serves both on `port`. */
export async function startBaseline(
  rig: RigState,
  dir: string,
  port: number,
): Promise<BaselineSite> {
  await buildBaseline(dir);
  const messages = await exportThread(rig);
  await writeFile(join(dir, "thread.json"), JSON.stringify(messages));
  const server: Server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? "/", "http://x").pathname).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    const file = join(dir, path === "/" ? "index.html" : path);
    readFile(file).then(
      (body) => {
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
        res.end(body);
      },
      () => {
        res.writeHead(404).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    messages: messages.length,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
