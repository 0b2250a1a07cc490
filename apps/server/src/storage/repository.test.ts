import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "../testing/harness.ts";
import { openDatabase, SCHEMA_VERSION, type SqliteDatabase } from "./db.ts";
import { ChatRepository } from "./repository.ts";

let dir: string;
let db: SqliteDatabase;
let repo: ChatRepository;
const SIZES = [0, 1, 2, 3, 7, 50, 201];
const threadOfSize = new Map<number, string>();

beforeAll(async () => {
  dir = await makeTempDir("chat-repo-");
  db = openDatabase(join(dir, "chat.sqlite"));
  repo = new ChatRepository(db);
  repo.transaction(() => {
    for (const size of SIZES) {
      const threadId = `thread-${size}`;
      threadOfSize.set(size, threadId);
      repo.createThread({ id: threadId, title: null, now: "2026-01-01T00:00:00.000Z" });
      for (let i = 0; i < size; i += 2) {
        const turnId = `${threadId}-turn-${i}`;
        repo.insertTurnWithPrompt({
          threadId,
          turnId,
          messageId: `${threadId}-m${i + 1}`,
          text: `prompt ${i}`,
          providerInput: `prompt ${i}`,
          now: "2026-01-01T00:00:01.000Z",
        });
        if (i + 1 < size) {
          repo.insertAssistantMessage({
            id: `${threadId}-m${i + 2}`,
            threadId,
            turnId,
            kind: "answer",
            text: `answer ${i}`,
            status: "complete",
            now: "2026-01-01T00:00:02.000Z",
          });
        }
      }
    }
  });
});

afterAll(async () => {
  db.close();
  await removeDir(dir);
});

const sizeArb = fc.constantFrom(...SIZES);

describe("ChatRepository history (property-based)", () => {
  it("walking pages back from the newest covers every message once, in order", () => {
    fc.assert(
      fc.property(sizeArb, fc.integer({ min: 1, max: 60 }), (size, limit) => {
        const threadId = threadOfSize.get(size)!;
        const seen: number[] = [];
        let before: number | null = null;
        for (;;) {
          const page = repo.messagesBefore(threadId, before, limit);
          expect(page.messages.length).toBeLessThanOrEqual(limit);
          seen.unshift(...page.messages.map((m) => m.seq));
          if (!page.hasOlder) break;
          before = page.messages[0]!.seq;
        }
        expect(seen).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      }),
    );
  });

  it("an around window holds its anchor, is contiguous, full where possible, and reports its edges", () => {
    const nonEmpty = SIZES.filter((s) => s > 0);
    fc.assert(
      fc.property(
        fc
          .constantFrom(...nonEmpty)
          .chain((size) =>
            fc.tuple(
              fc.constant(size),
              fc.integer({ min: 1, max: size }),
              fc.integer({ min: 1, max: 60 }),
            ),
          ),
        ([size, anchorSeq, limit]) => {
          const threadId = threadOfSize.get(size)!;
          const anchor = repo.getMessage(`${threadId}-m${anchorSeq}`)!;
          const window = repo.messagesAround(anchor, limit);
          const seqs = window.messages.map((m) => m.seq);
          expect(seqs).toContain(anchorSeq);
          expect(seqs.length).toBe(Math.min(limit, size));
          expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs[0]! + i));
          expect(window.hasOlder).toBe(seqs[0]! > 1);
          expect(window.hasNewer).toBe(seqs.at(-1)! < size);
          // Centred unless an end of the thread cuts one side short.
          const older = anchorSeq - seqs[0]!;
          const newer = seqs.at(-1)! - anchorSeq;
          if (window.hasOlder && window.hasNewer) {
            expect(Math.abs(older - newer)).toBeLessThanOrEqual(1);
          }
        },
      ),
    );
  });

  it("after pages continue exactly where a page ends", () => {
    fc.assert(
      fc.property(
        sizeArb,
        fc.integer({ min: 0, max: 210 }),
        fc.integer({ min: 1, max: 60 }),
        (size, after, limit) => {
          const threadId = threadOfSize.get(size)!;
          const page = repo.messagesAfter(threadId, after, limit);
          const expected = Array.from(
            { length: Math.max(0, Math.min(limit, size - after)) },
            (_, i) => after + 1 + i,
          );
          expect(page.messages.map((m) => m.seq)).toEqual(expected);
          expect(page.hasNewer).toBe(after + limit < size);
        },
      ),
    );
  });
});

describe("schema and environment", () => {
  it("keeps the environment id and schema version across reopenings", async () => {
    const other = await makeTempDir("chat-repo-env-");
    try {
      const first = openDatabase(join(other, "chat.sqlite"));
      const id = new ChatRepository(first).environmentId;
      expect(first.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
      expect(first.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(first.pragma("foreign_keys", { simple: true })).toBe(1);
      first.close();
      const second = openDatabase(join(other, "chat.sqlite"));
      expect(new ChatRepository(second).environmentId).toBe(id);
      second.close();
    } finally {
      await removeDir(other);
    }
  });

  it("refuses a database written by a newer schema with a clear message", async () => {
    const other = await makeTempDir("chat-repo-new-");
    try {
      const first = openDatabase(join(other, "chat.sqlite"));
      first.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      first.close();
      expect(() => openDatabase(join(other, "chat.sqlite"))).toThrow(/newer than this server/);
    } finally {
      await removeDir(other);
    }
  });
});
