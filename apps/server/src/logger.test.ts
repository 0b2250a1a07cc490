/**
 * Logs (issue 13): one line per request with method, path, status and duration, and every
 * failed turn with its id and cause; LOG_LEVEL picks how much.
 */
import type { Thread } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { RecordingAdapter, removeDir, startTestServer, waitFor } from "./testing/harness.ts";

function sink() {
  const lines: string[] = [];
  const write = (...parts: unknown[]) => lines.push(parts.map(String).join(" "));
  return { lines, console: { error: write, warn: write, log: write } };
}

describe("logs", () => {
  it("writes one line per request and one per failed turn, with its id and cause", async () => {
    const out = sink();
    const server = await startTestServer({
      adapter: new RecordingAdapter(async () => {
        throw new Error("model exploded");
      }),
      logger: createLogger("info", out.console),
    });
    try {
      await server.request("/api/environment");
      await server.request("/api/nope");
      const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
      const sent = (await (
        await server.post(`/api/threads/${thread.id}/turns`, { input: "hi" })
      ).json()) as { turn: { id: string } };
      await server.provider.whenIdle();
      await waitFor(() => (out.lines.some((l) => l.includes("failed")) ? true : undefined));
      expect(out.lines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^GET \/api\/environment 200 \d+\.\dms$/),
          expect.stringMatching(/^GET \/api\/nope 404 \d+\.\dms$/),
          expect.stringMatching(/^POST \/api\/threads 201 \d+\.\dms$/),
          `Turn ${sent.turn.id} of thread ${thread.id} failed (provider_error): The provider failed: model exploded`,
        ]),
      );
    } finally {
      await server.close();
      await removeDir(server.dataDir);
    }
  });

  it("keeps to LOG_LEVEL", () => {
    const out = sink();
    const logger = createLogger("warn", out.console);
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(out.lines).toEqual(["w", "e"]);
    const silent = sink();
    createLogger("silent", silent.console).error("nothing");
    expect(silent.lines).toEqual([]);
  });
});
