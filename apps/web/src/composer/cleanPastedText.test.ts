import { describe, expect, it } from "vitest";
import { pasteCleanedMessage, replaceLoneSurrogates } from "./cleanPastedText.ts";

describe("replaceLoneSurrogates", () => {
  it("replaces every lone surrogate and counts them; pairs stay", () => {
    expect(replaceLoneSurrogates("a\ud800b\udc00c")).toEqual({
      text: "a\ufffdb\ufffdc",
      replaced: 2,
    });
    expect(replaceLoneSurrogates("smile \ud83d\ude00")).toEqual({
      text: "smile \ud83d\ude00",
      replaced: 0,
    });
    // A low surrogate right after a pair is lone; a high one at the very end is lone.
    expect(replaceLoneSurrogates("\ud83d\ude00\ude00\ud83d")).toEqual({
      text: "\ud83d\ude00\ufffd\ufffd",
      replaced: 2,
    });
    expect(replaceLoneSurrogates("\ud800".repeat(120_000)).replaced).toBe(120_000);
  });

  it("leaves well-formed text exactly as it was (checked against TextEncoder's own repair)", () => {
    const samples = [
      "",
      "plain",
      "é ü 中文",
      "\ud83d\ude00\ud83d\ude01",
      "a\ud800",
      "\udfff\ud800",
    ];
    for (const sample of samples) {
      const { text } = replaceLoneSurrogates(sample);
      // TextEncoder replaces each lone surrogate with U+FFFD: the same repair.
      expect(text).toBe(new TextDecoder().decode(new TextEncoder().encode(sample)));
    }
  });

  it("says how many characters it replaced", () => {
    expect(pasteCleanedMessage(1)).toMatch(/1 broken character/);
    expect(pasteCleanedMessage(3)).toMatch(/3 broken characters/);
  });
});
