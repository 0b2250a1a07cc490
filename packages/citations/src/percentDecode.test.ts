import { describe, expect, it } from "vitest";
import { decodeUriComponentOrNull } from "./percentDecode.ts";

/** `decodeURIComponent` with `+` as a space where asked, `null` where it throws. */
function reference(value: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? value.replaceAll("+", " ") : value);
  } catch {
    return null;
  }
}

/** Asserts the decoder's result and that `decodeURIComponent` agrees with it. */
function expectDecoded(value: string, plusIsSpace: boolean, expected: string | null) {
  expect(decodeUriComponentOrNull(value, plusIsSpace)).toBe(expected);
  expect(reference(value, plusIsSpace)).toBe(expected);
}

describe("decodeUriComponentOrNull decodes", () => {
  it("nothing when there is no escape, returning the value itself", () => {
    for (const value of ["", "plain", "a+b", "caf\u00e9 \u{1F642}", "\uD800 lone"]) {
      expectDecoded(value, false, value);
    }
    expectDecoded("no plus here", true, "no plus here");
  });

  it("`+` as a space only in form mode", () => {
    expectDecoded("a+b++c+", true, "a b  c ");
    expectDecoded("a+b++c+", false, "a+b++c+");
    expectDecoded("%2B+%2b", true, "+ +");
  });

  it("hex in either case", () => {
    expectDecoded("%41%4a%4A%6f%6F%7e%7E", false, "AJJoo~~");
    expectDecoded("%c3%a9%C3%A9%c3%A9", false, "\u00e9\u00e9\u00e9");
  });

  it("every escaped ASCII byte, NUL included", () => {
    let encoded = "";
    let expected = "";
    for (let code = 0; code < 0x80; code++) {
      encoded += `%${code.toString(16).padStart(2, "0")}`;
      expected += String.fromCharCode(code);
    }
    expectDecoded(encoded, true, expected);
  });

  it("`%25` once, never decoding its result again", () => {
    expectDecoded("%2541", false, "%41");
    expectDecoded("%25%32%35", false, "%25");
    expectDecoded("100%25+sure", true, "100% sure");
  });

  it("UTF-8 of each length at the edges of its range", () => {
    expectDecoded("%C2%80%DF%BF", false, "\u0080\u07ff");
    expectDecoded("%E0%A0%80%ED%9F%BF%EE%80%80%EF%BF%BF", false, "\u0800\ud7ff\ue000\uffff");
    expectDecoded("%F0%90%80%80%F4%8F%BF%BF", false, "\u{10000}\u{10ffff}");
    expectDecoded("%F0%9F%99%82", true, "\u{1F642}");
  });

  it("a byte order mark anywhere, keeping it", () => {
    expectDecoded("%EF%BB%BFquote", false, "\uFEFFquote");
    expectDecoded(`%EF%BB%BF${"x".repeat(100)}%EF%BB%BF`, true, `\uFEFF${"x".repeat(100)}\uFEFF`);
  });

  it("raw non-ASCII characters and lone surrogates around escapes, unchanged", () => {
    expectDecoded("caf\u00e9+%C3%A9", true, "caf\u00e9 \u00e9");
    expectDecoded("\u6570%E6%95%B0\u{1F642}", false, "\u6570\u6570\u{1F642}");
    expectDecoded("\uD800%41", false, "\uD800A");
    expectDecoded("%41\uDC00+", true, "A\uDC00 ");
    expectDecoded("\uD83D%F0%9F%99%82\uDE00", false, "\uD83D\u{1F642}\uDE00");
  });

  it("long values (buffer growth) and then short ones (stale bytes after the end)", () => {
    const long = "%E6%95%B0+".repeat(20_000);
    expectDecoded(long, true, "\u6570 ".repeat(20_000));
    expectDecoded("%4", false, null);
    expectDecoded("ab%", false, null);
    expectDecoded("%E6%95", false, null);
  });
});

describe("decodeUriComponentOrNull returns null for", () => {
  const malformed: Array<[string, string]> = [
    ["a lone %", "%"],
    ["% at the end", "abc%"],
    ["one hex digit", "%4"],
    ["one hex digit then text", "%4g"],
    ["a non-hex first digit", "%G0"],
    ["a non-hex second digit", "%0G"],
    ["a sign inside the escape", "%+1"],
    ["a space inside the escape", "% 1"],
    ["a non-ASCII digit", "%\u0661\u0661"],
    ["overlong NUL (C0 80)", "%C0%80"],
    ["overlong C1", "%C1%BF"],
    ["overlong three-byte (E0 80-9F)", "%E0%9F%BF"],
    ["overlong four-byte (F0 80-8F)", "%F0%8F%BF%BF"],
    ["an encoded high surrogate", "%ED%A0%80"],
    ["an encoded low surrogate", "%ED%BF%BF"],
    ["an encoded surrogate pair (CESU-8)", "%ED%A0%BD%ED%B8%80"],
    ["above U+10FFFF (F4 90)", "%F4%90%80%80"],
    ["a F5 lead byte", "%F5%80%80%80"],
    ["a F8 lead byte", "%F8%88%80%80%80"],
    ["a FC lead byte", "%FC%84%80%80%80%80"],
    ["FE", "%FE"],
    ["FF", "%FF"],
    ["a stray continuation byte", "%80"],
    ["a stray continuation byte after a character", "%C3%A9%A9"],
    ["a two-byte sequence cut off", "%C3"],
    ["a three-byte sequence cut off", "%E6%95"],
    ["a four-byte sequence cut off", "%F0%9F%99"],
    ["a cut-off sequence before text", "%E6%95abc"],
    ["a lead byte followed by ASCII", "%C3%41"],
    ["a lead byte followed by a raw continuation character", "%C3\u00a9"],
    ["a lead byte followed by a `+`", "%C3+"],
    ["a lead byte followed by a new lead byte", "%E6%E6%95%B0"],
    ["a malformed continuation escape", "%C3%A"],
    ["a malformed escape after valid ones", "%41%42%4"],
  ];

  it.each(malformed)("%s", (_name, value) => {
    expectDecoded(value, false, null);
    expectDecoded(value, true, null);
    expectDecoded(`ok+${value}+ok`, true, null);
  });
});
