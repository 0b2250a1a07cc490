import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { storableProviderText } from "./providerText.ts";

describe("storableProviderText", () => {
  it("replaces each NUL with U+FFFD and keeps every other unit in place (property)", () => {
    const withNul = fc.array(fc.oneof(fc.constant("\u0000"), fc.string({ unit: "binary" })), {
      maxLength: 20,
    });
    fc.assert(
      fc.property(withNul, (parts) => {
        const text = parts.join("");
        const out = storableProviderText(text);
        expect(out).not.toContain("\u0000");
        expect(out.length).toBe(text.length);
        for (let i = 0; i < text.length; i++) {
          expect(out[i]).toBe(text[i] === "\u0000" ? "\uFFFD" : text[i]);
        }
      }),
    );
  });

  it("returns text without NUL unchanged", () => {
    expect(storableProviderText("plain \uD83D\uDE00 text")).toBe("plain \uD83D\uDE00 text");
  });
});
