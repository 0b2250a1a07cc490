import type { AllThreadsSearchResponse, Thread } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { flattenSearchPages, snippetPieces } from "./searchResults.ts";

const thread = (id: string): Thread => ({
  id,
  environmentId: "env",
  title: id,
  branchName: null,
  createdAt: "t",
  updatedAt: "t",
  messageCount: 2,
});
const match = (messageId: string) => ({
  messageId,
  role: "assistant" as const,
  ranges: [[0, 1]] as [number, number][],
  snippet: { text: "a", start: 0, ranges: [[0, 1]] as [number, number][] },
  quote: null,
});

describe("search results", () => {
  it("lists every message once, in page order", () => {
    const page = (ids: string[]): AllThreadsSearchResponse => ({
      groups: [{ thread: thread("t1"), matches: ids.map(match) }],
      nextCursor: null,
      limited: null,
    });
    expect(flattenSearchPages([page(["m1", "m2"]), page(["m2", "m3"])]).map((r) => r.key)).toEqual([
      "t1/m1",
      "t1/m2",
      "t1/m3",
    ]);
  });

  it("cuts a snippet into plain and matched pieces", () => {
    expect(
      snippetPieces({
        text: "the fox and the fox",
        start: 0,
        ranges: [
          [4, 7],
          [16, 19],
        ],
      }),
    ).toEqual([
      { text: "the ", matched: false },
      { text: "fox", matched: true },
      { text: " and the ", matched: false },
      { text: "fox", matched: true },
    ]);
  });
});
