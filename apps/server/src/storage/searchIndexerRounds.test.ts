/**
 * What a round of the indexer of a shared database (PostgreSQL) reads from the queue: anything
 * on its first round, then only what this process queued, and on a turn sweep also what was
 * created over `ABANDONED_AFTER_MS` ago, never what another live process has just queued (it
 * renders that itself). The store is a recording stand-in; the queries themselves are held on
 * both stores by searchIndexer.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ChatQueries } from "./chatStore.ts";
import { renderAtOnce } from "./indexPacing.ts";
import { ABANDONED_AFTER_MS, SearchIndexer } from "./searchIndexer.ts";
import type { SearchTextRenderer } from "./searchTextRenderer.ts";

type Read = { only: readonly string[] | undefined; createdBefore: string | undefined };

function recordingStore() {
  const reads: Read[] = [];
  const store = {
    indexesSearchPieces: false,
    writeSearchTexts: async () => {},
    async queuedSearchTexts(
      _limit: number,
      only?: readonly string[],
      _except?: readonly string[],
      createdBefore?: string,
    ) {
      reads.push({ only: only === undefined ? undefined : [...only], createdBefore });
      return [];
    },
    transaction: async <T>(fn: (tx: ChatQueries) => Promise<T>) => fn({} as ChatQueries),
  };
  return { reads, store };
}

const renderer: SearchTextRenderer = {
  render: async (_role, markdown) => markdown,
  close: async () => {},
};

describe("the rounds of a shared database's indexer", () => {
  it("reads anything first, then its own, and on a sweep also what is a minute old", async () => {
    const { reads, store } = recordingStore();
    const indexer = new SearchIndexer(store, true, renderer, renderer, renderAtOnce);
    indexer.kick();
    await indexer.idle();
    expect(reads).toEqual([{ only: undefined, createdBefore: undefined }]);

    indexer.committed(["m1"]);
    indexer.kick();
    await indexer.idle();
    expect(reads[1]).toEqual({ only: ["m1"], createdBefore: undefined });

    // m1 was not queued any more (indexed elsewhere): nothing of its own is left to read.
    indexer.kick();
    await indexer.idle();
    expect(reads).toHaveLength(2);

    const before = Date.now();
    indexer.kick({ abandoned: true });
    await indexer.idle();
    expect(reads[2]!.only).toEqual([]);
    const cutoff = Date.parse(reads[2]!.createdBefore!);
    expect(cutoff).toBeGreaterThanOrEqual(before - ABANDONED_AFTER_MS);
    expect(cutoff).toBeLessThanOrEqual(Date.now() - ABANDONED_AFTER_MS);

    // A branch still reads everything.
    indexer.kick({ everything: true });
    await indexer.idle();
    expect(reads[3]).toEqual({ only: undefined, createdBefore: undefined });
    await indexer.close();
  });
});
