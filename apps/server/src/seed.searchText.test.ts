/**
 * The seed indexes its messages from templates (`SeededSearchTexts`, issue 33): on the store
 * under test, every seeded message's indexed text is exactly `searchTextOf` of its Markdown,
 * for every template (280 turns reach each of the 280 answer templates) and for prompts with
 * citation links, which are rendered as they are. Nothing is left queued.
 */
import { describe, expect, it } from "vitest";
import { seedDemoThread, seededMessageCount } from "./seed.ts";
import { searchTextOf } from "./storage/searchText.ts";
import { makeTempDir, openTestStore, removeDir } from "./testing/harness.ts";

describe("seeded search texts", () => {
  it("index every seeded message exactly as its rendered text", async () => {
    const dir = await makeTempDir("chat-seed-search-");
    const store = await openTestStore(dir);
    try {
      const turns = 280;
      const threadId = await seedDemoThread(store, { turns });
      expect(await store.queuedSearchTexts(10)).toEqual([]);
      // Every seeded message holds a space: one candidate per message, in thread order.
      const candidates = await store.searchCandidates({
        threadId,
        query: " ",
        caseSensitive: true,
        afterKey: 0,
        limit: 10_000,
      });
      expect(candidates).toHaveLength(seededMessageCount(turns));
      for (const candidate of candidates) {
        const message = await store.getMessage(candidate.messageId);
        expect(candidate.text).toBe(searchTextOf(candidate.role, message!.text));
      }
    } finally {
      await store.close();
      await removeDir(dir);
    }
  }, 120_000);
});
