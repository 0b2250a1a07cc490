import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { foldedSearchText, ftsQuery, likeFoldSuperset } from "./searchText.ts";

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

describe("likeFoldSuperset (SQLite's walk over texts no built-in filter folds exactly)", () => {
  const db = new Database(":memory:");
  const like = db.prepare("SELECT ? LIKE ? ESCAPE '\\' AS hit");
  const matches = (text: string, query: string) =>
    (like.get(text, likeFoldSuperset(foldedSearchText(query))) as { hit: number }).hit === 1;

  it("lets through every text whose fold contains the query, whatever folds into its letters", () => {
    const cases: [text: string, query: string][] = [
      ["the \u017fhared notes", "shared notes"], // LONG S
      ["SHARED NOTES", "shared notes"],
      ["a \u212aelvin scale", "kelvin"], // KELVIN SIGN
      ["d\u0131st", "dist"], // DOTLESS I
      ["ÜBERGRÖẞE", "übergröße"],
      ["ΣΟΦΙΑ", "σοφια"],
      ["50% off_now", "50% off_n"],
      ["a\\b", "a\\b"],
      ["𐐀𐐁 deseret", "𐐨𐐩 deseret"],
    ];
    for (const [text, query] of cases) {
      expect(foldedSearchText(text).includes(foldedSearchText(query))).toBe(true);
      expect(matches(text, query)).toBe(true);
    }
  });

  it("still rules out texts without the query's other letters (a useful filter)", () => {
    expect(matches("the shared nodes", "shared notes")).toBe(false);
    expect(matches("50 percent off", "50% off")).toBe(false);
    expect(matches("a_b", "a%b")).toBe(false);
  });

  it("knows every code point outside ASCII that folds into ASCII (i, k and s only)", () => {
    const intoAscii: string[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const folded = foldedSearchText(String.fromCodePoint(code));
      if (/^[\u0000-\u007f]+$/.test(folded)) intoAscii.push(folded);
    }
    expect([...new Set(intoAscii)].sort()).toEqual(["i", "k", "s"]);
  });
});
