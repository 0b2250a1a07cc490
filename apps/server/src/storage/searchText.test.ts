import { describe, expect, it } from "vitest";
import { ftsQuery } from "./searchText.ts";

describe("ftsQuery", () => {
  it("keeps a query whose trigrams all differ one phrase", () => {
    expect(ftsQuery("abcd")).toBe('"abcd"');
    expect(ftsQuery('say "hi"')).toBe('"say ""hi"""');
  });

  it("asks for each repeated trigram once (issue 29: 200 × x is one trigram, not 198)", () => {
    expect(ftsQuery("x".repeat(200))).toBe('"xxx"');
    expect(ftsQuery("abcabcabc")).toBe('"abc" AND "bca" AND "cab"');
    // Code points, not UTF-16 units: an emoji is one character of a trigram.
    expect(ftsQuery("🙂🙂🙂🙂")).toBe('"🙂🙂🙂"');
  });
});
