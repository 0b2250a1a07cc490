/**
 * The fake OpenAI-compatible server of streamingServer.ts, in a process of its own: a real
 * provider runs elsewhere, so its JSON encoding and socket writes should not share the chat
 * server's CPU figures. Prints `URL <baseUrl>` once listening; SIGTERM closes it.
 */
import { sseDelta, startFakeOpenAiServer } from "../../src/providers/testing/fakeOpenAiServer.ts";
import { CHUNKS, chunk } from "./floodChunks.ts";

const fake = await startFakeOpenAiServer(() => ({
  type: "flood",
  count: CHUNKS + 1,
  chunk: (i) => (i < CHUNKS ? sseDelta(chunk(i)) : sseDelta(null, "stop")),
}));
console.log(`URL ${fake.baseUrl}`);
process.once("SIGTERM", async () => {
  await fake.close();
  process.exit(0);
});
