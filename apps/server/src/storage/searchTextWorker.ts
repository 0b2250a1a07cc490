/**
 * The worker thread of `searchTextRenderer.ts`: renders queued messages' search text, so a long
 * reply's Markdown parse (about 0.6 s for 600,000 characters in one paragraph) never runs on the
 * server's event loop. Bundled as `dist/searchTextWorker.mjs` (scripts/build.mjs).
 */
import { parentPort } from "node:worker_threads";
import { searchTextOf } from "./searchText.ts";

export interface SearchTextRequest {
  id: number;
  role: "user" | "assistant";
  markdown: string;
}

export type SearchTextReply = { id: number; text: string } | { id: number; error: string };

parentPort?.on("message", ({ id, role, markdown }: SearchTextRequest) => {
  let reply: SearchTextReply;
  try {
    reply = { id, text: searchTextOf(role, markdown) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
