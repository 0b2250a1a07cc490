/**
 * The fake OpenAI-compatible server of streamingServer.ts, in a worker thread: a real provider
 * runs elsewhere, so its JSON encoding and socket writes should not share the chat server's
 * event loop. Posts `{ baseUrl }` once listening; any message closes it.
 */
import { parentPort } from "node:worker_threads";
import { sseDelta, startFakeOpenAiServer } from "../../src/providers/testing/fakeOpenAiServer.ts";
import { CHUNKS, chunk } from "./floodChunks.ts";

const fake = await startFakeOpenAiServer(() => ({
  type: "flood",
  count: CHUNKS + 1,
  chunk: (i) => (i < CHUNKS ? sseDelta(chunk(i)) : sseDelta(null, "stop")),
}));
parentPort!.postMessage({ baseUrl: fake.baseUrl });
parentPort!.once("message", async () => {
  await fake.close();
  parentPort!.close();
});
