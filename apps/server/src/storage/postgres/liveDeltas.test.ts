/**
 * The payloads of `NOTIFY chat_live` (liveDeltas.ts): a chunk of any size and content becomes
 * payloads PostgreSQL accepts, which decode back to the same text, in order.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LiveDelta } from "../chatStore.ts";
import {
  decodeLiveDelta,
  encodeLiveDelta,
  LIVE_BATCH_MS,
  LiveDeltaBatcher,
  MAX_LIVE_PAYLOAD_BYTES,
} from "./liveDeltas.ts";

const delta = (offset: number, text: string, messageId = "m1"): LiveDelta => ({
  type: "message.delta",
  messageId,
  offset,
  delta: text,
});

describe("live delta payloads", () => {
  it("split into payloads under the NOTIFY limit that rebuild the chunk, offsets contiguous", () => {
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 6_000 }),
      fc.string({ unit: "binary", maxLength: 6_000 }),
      // Lone surrogates and control characters are escaped to 6 bytes each in JSON.
      fc.string({
        unit: fc.constantFrom("\ud800", "\u0000", "\n", "é", "😀", "a"),
        maxLength: 6_000,
      }),
    );
    fc.assert(
      fc.property(text, fc.nat(1_000_000), (chunk, offset) => {
        const payloads = encodeLiveDelta("s1", "t1", delta(offset, chunk));
        let next = offset;
        let rebuilt = "";
        for (const payload of payloads) {
          expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_LIVE_PAYLOAD_BYTES);
          const received = decodeLiveDelta(payload, "s2");
          expect(received?.threadId).toBe("t1");
          expect(received?.event.offset).toBe(next);
          next += received!.event.delta.length;
          rebuilt += received!.event.delta;
        }
        expect(rebuilt).toBe(chunk);
      }),
      { numRuns: 200 },
    );
  });

  it("split chunks whose JSON escapes make them long (NUL, lone surrogates)", () => {
    for (const chunk of ["\u0000".repeat(5_000), "\udc00".repeat(5_000)]) {
      const payloads = encodeLiveDelta("s1", "t1", delta(0, chunk));
      expect(payloads.length).toBeGreaterThan(1);
      for (const payload of payloads) {
        expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_LIVE_PAYLOAD_BYTES);
      }
      const text = payloads.map((p) => decodeLiveDelta(p, "s2")!.event.delta).join("");
      expect(text).toBe(chunk);
    }
  });

  it("never splits a surrogate pair", () => {
    const payloads = encodeLiveDelta("s1", "t1", delta(0, "😀".repeat(3_000)));
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) {
      const chunk = decodeLiveDelta(payload, "s2")!.event.delta;
      // Starts with a whole pair, ends with a whole pair.
      expect(chunk.codePointAt(0)).toBe(0x1f600);
      expect(chunk.charCodeAt(chunk.length - 1)).toBe(0xde00);
    }
  });

  it("are ignored by the process that sent them, and when malformed", () => {
    const [payload] = encodeLiveDelta("me", "t1", delta(0, "hi"));
    expect(decodeLiveDelta(payload!, "me")).toBeNull();
    expect(decodeLiveDelta(payload!, "other")?.event.delta).toBe("hi");
    expect(decodeLiveDelta("{", "other")).toBeNull();
    expect(
      decodeLiveDelta(JSON.stringify({ s: "x", t: "t1", e: { type: "turn.updated" } }), "other"),
    ).toBeNull();
  });
});

describe("LiveDeltaBatcher", () => {
  // The batch timer is the only clock: fake timers show what is sent at each point.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A sender whose statements stay in flight until the test lets them finish. */
  function recorder() {
    const statements: { payloads: string[]; finish: () => void }[] = [];
    const batcher = new LiveDeltaBatcher(
      (payloads) => new Promise<void>((resolve) => statements.push({ payloads, finish: resolve })),
    );
    const sent = (i: number) => statements[i]!.payloads.map((p) => decodeLiveDelta(p, "other")!);
    return { batcher, statements, sent };
  }

  it("merges a batch's contiguous chunks per message into one statement", async () => {
    const { batcher, statements, sent } = recorder();
    for (let i = 0; i < 100; i++) batcher.add("t1", delta(i, "x"));
    batcher.add("t2", delta(0, "other thread", "m2"));
    batcher.add("t1", delta(100, "y"));
    expect(statements).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(LIVE_BATCH_MS);
    expect(statements).toHaveLength(1);
    expect(
      sent(0).map((r) => [r.threadId, r.event.messageId, r.event.offset, r.event.delta]),
    ).toEqual([
      ["t1", "m1", 0, `${"x".repeat(100)}y`],
      ["t2", "m2", 0, "other thread"],
    ]);
    batcher.close();
  });

  it("keeps one statement in flight: what gathers meanwhile goes next, in order", async () => {
    const { batcher, statements, sent } = recorder();
    batcher.add("t1", delta(0, "a"));
    await vi.advanceTimersByTimeAsync(LIVE_BATCH_MS);
    batcher.add("t1", delta(1, "b"));
    batcher.add("t1", delta(2, "c"));
    // The first statement has not returned: nothing else is sent, however long it takes.
    await vi.advanceTimersByTimeAsync(10 * LIVE_BATCH_MS);
    expect(statements).toHaveLength(1);
    statements[0]!.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(statements).toHaveLength(2);
    expect(sent(1).map((r) => [r.event.offset, r.event.delta])).toEqual([[1, "bc"]]);
    batcher.close();
  });

  it("sends nothing after close, and a failed statement does not stop later ones", async () => {
    const statements: string[][] = [];
    let fail = true;
    const batcher = new LiveDeltaBatcher(async (payloads) => {
      statements.push(payloads);
      if (fail) throw new Error("connection lost");
    });
    batcher.add("t1", delta(0, "a"));
    await vi.advanceTimersByTimeAsync(LIVE_BATCH_MS);
    expect(statements).toHaveLength(1);
    fail = false;
    batcher.add("t1", delta(1, "b"));
    await vi.advanceTimersByTimeAsync(LIVE_BATCH_MS);
    expect(statements).toHaveLength(2);
    batcher.add("t1", delta(2, "c"));
    batcher.close();
    await vi.advanceTimersByTimeAsync(10 * LIVE_BATCH_MS);
    expect(statements).toHaveLength(2);
  });
});
