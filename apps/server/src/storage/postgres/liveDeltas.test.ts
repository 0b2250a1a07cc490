/**
 * The payloads of `NOTIFY chat_live` (liveDeltas.ts): a chunk of any size and content becomes
 * payloads PostgreSQL accepts, which decode back to the same text, in order.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LiveDelta } from "../chatStore.ts";
import { decodeLiveDelta, encodeLiveDelta, MAX_LIVE_PAYLOAD_BYTES } from "./liveDeltas.ts";

const delta = (offset: number, text: string): LiveDelta => ({
  type: "message.delta",
  messageId: "m1",
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
