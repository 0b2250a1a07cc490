import type { Message } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aroundWindow, pageOf, turnsWithinBudget, withDeltas } from "./storeLogic.ts";

describe("aroundWindow", () => {
  it("fills a window of `limit` around the anchor, from both sides, contiguous (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (olderCount, newerCount, limit) => {
          // Rows are seqs; the anchor is 0. Each side is fetched with `limit` rows, as stores do.
          const older = Array.from(
            { length: Math.min(olderCount, limit) },
            (_, i) => -i - 1,
          ).reverse();
          const newer = Array.from({ length: Math.min(newerCount, limit) }, (_, i) => i + 1);
          const w = aroundWindow(older, newer, limit);
          const seqs = [...w.older, 0, ...w.newer];
          expect(seqs.length).toBe(Math.min(limit, olderCount + newerCount + 1));
          seqs.forEach((seq, i) => {
            if (i > 0) expect(seq).toBe(seqs[i - 1]! + 1);
          });
          expect(w.hasOlder).toBe(olderCount > w.older.length);
          expect(w.hasNewer).toBe(newerCount > w.newer.length);
          // About half older when both sides have enough.
          if (olderCount >= limit && newerCount >= limit) {
            expect(w.older.length).toBe(Math.floor((limit - 1) / 2));
          }
        },
      ),
    );
  });
});

describe("pageOf", () => {
  it("keeps `limit` rows and says whether one more was read", () => {
    expect(pageOf([1, 2, 3], 2)).toEqual({ page: [1, 2], more: true });
    expect(pageOf([1, 2], 2)).toEqual({ page: [1, 2], more: false });
  });
});

describe("turnsWithinBudget", () => {
  it("takes the longest newest-first run within both bounds (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 1000 }),
        (sizes, maxTurns, maxChars) => {
          const count = turnsWithinBudget(sizes, { maxTurns, maxChars });
          const taken = sizes.slice(0, count);
          expect(count).toBeLessThanOrEqual(maxTurns);
          expect(taken.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxChars);
          // One more would break a bound (or there is none).
          if (count < Math.min(maxTurns, sizes.length)) {
            expect([...taken, sizes[count]!].reduce((a, b) => a + b, 0)).toBeGreaterThan(maxChars);
          }
        },
      ),
    );
  });
});

describe("withDeltas", () => {
  const streaming: Message = {
    id: "m",
    threadId: "t",
    turnId: "u",
    role: "assistant",
    kind: "answer",
    text: "",
    status: "streaming",
    seq: 2,
    createdAt: "2026-12-04T00:00:00.000Z",
  };
  const row = (offset: number, delta: string) =>
    JSON.stringify({ type: "message.delta", messageId: "m", offset, delta });

  it("rebuilds the text from contiguous rows, however it was cut (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 20 }), (chunks) => {
        let offset = 0;
        const rows = chunks.map((chunk) => {
          const data = row(offset, chunk);
          offset += chunk.length;
          return data;
        });
        expect(withDeltas(streaming, rows).text).toBe(chunks.join(""));
      }),
    );
  });

  it("ignores a row that does not start where the text ends, and leaves finished messages as stored", () => {
    expect(withDeltas(streaming, [row(0, "ab"), row(3, "d"), row(2, "c")]).text).toBe("abc");
    const done = { ...streaming, status: "complete" as const, text: "whole" };
    expect(withDeltas(done, [row(5, "more")])).toBe(done);
  });
});
