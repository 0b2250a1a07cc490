/**
 * Renders a long message's search text off the event loop, for the background indexer
 * (`searchIndexer.ts`): in a worker thread (`searchTextWorker.ts`), started on first use and
 * kept. A worker that cannot start or dies is replaced by rendering on the event loop one
 * top-level block at a time (`renderedTextSteps`), yielding between blocks, so a reply of many
 * blocks still never blocks for long (one huge paragraph would: hence the worker first).
 */
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { renderedTextSteps } from "@app/markdown";
import type { SearchTextReply, SearchTextRequest } from "./searchTextWorker.ts";

export interface SearchTextRenderer {
  /** The rendered text of a complete message (as `searchTextOf`). */
  render(role: "user" | "assistant", markdown: string): Promise<string>;
  /** Stops the worker; renders still waiting reject. */
  close(): Promise<void>;
}

/** On the event loop, at most about this long between two yields (one block may take longer). */
const SLICE_MS = 4;

type Waiting = { resolve: (text: string) => void; reject: (error: Error) => void };

export function createSearchTextRenderer(): SearchTextRenderer {
  let worker: Worker | null = null;
  let broken = false;
  let closed = false;
  let nextId = 1;
  const waiting = new Map<number, Waiting>();

  const failAll = (error: Error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  };

  const start = (): Worker => {
    const started = spawnWorker();
    // The queue is in the database: a pending render never keeps the process alive.
    started.unref();
    started.on("message", (reply: SearchTextReply) => {
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if ("text" in reply) w.resolve(reply.text);
      else w.reject(new Error(reply.error));
    });
    const lost = (error: Error) => {
      if (worker !== started) return;
      worker = null;
      if (!closed) {
        broken = true;
        console.warn(`Search index worker unavailable (${error.message}); rendering in steps.`);
      }
      failAll(error);
    };
    started.on("error", lost);
    started.on("exit", (code) => lost(new Error(`search index worker exited (${code})`)));
    return started;
  };

  const inWorker = (role: "user" | "assistant", markdown: string): Promise<string> => {
    worker ??= start();
    const id = nextId++;
    const request: SearchTextRequest = { id, role, markdown };
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker!.postMessage(request);
    });
  };

  return {
    async render(role, markdown) {
      if (closed) throw new Error("search text renderer closed");
      if (!broken) {
        try {
          return await inWorker(role, markdown);
        } catch (error) {
          if (closed || !broken) throw error;
        }
      }
      return renderInSteps(role, markdown);
    },
    async close() {
      closed = true;
      const current = worker;
      worker = null;
      failAll(new Error("search text renderer closed"));
      await current?.terminate();
    },
  };
}

/**
 * The worker: the bundled file beside the bundle, or from the sources the TypeScript entry
 * through tsx (or, in the server's tests, the bundle their run built:
 * `testing/testBundles.ts`).
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  // The main thread's stack (about 1 MB), not a worker's default 4 MB: the same Markdown
  // overflows it (indexed as its source) as inline, and 20,000 nested `>` give up after about
  // 1 s rather than 15 s.
  const options = { resourceLimits: { stackSizeMb: 1 } };
  if (!here.endsWith(".ts")) return new Worker(new URL("./searchTextWorker.mjs", here), options);
  const testBundle = process.env.CHAT_TEST_SEARCH_WORKER_BUNDLE;
  if (testBundle) return new Worker(pathToFileURL(testBundle), options);
  // Sources (tsx, vitest): the worker registers tsx before loading the TypeScript entry.
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const entry = JSON.stringify(new URL("./searchTextWorker.ts", here).href);
  return new Worker(
    `import(${tsx}).then(({ register }) => { register(); return import(${entry}); });`,
    { ...options, eval: true },
  );
}

/** `searchTextOf` on the event loop, yielding to other work every {@link SLICE_MS}. */
export async function renderInSteps(role: "user" | "assistant", markdown: string): Promise<string> {
  try {
    const steps = renderedTextSteps(markdown, role);
    let sliceStart = performance.now();
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (performance.now() - sliceStart >= SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  } catch (error) {
    // As searchTextOf: Markdown nested past the parser's stack is indexed as its source.
    if (error instanceof RangeError) return markdown;
    throw error;
  }
}
