import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProviderMessageWriter } from "../providers/types.ts";
import { storableProviderText, storableWriter } from "./providerText.ts";

/** The reference: NUL and every unpaired surrogate unit become U+FFFD, one for one. */
function reference(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += text[i]! + text[i + 1]!;
      i++;
    } else if (unit === 0 || (unit >= 0xd800 && unit <= 0xdfff)) out += "\uFFFD";
    else out += text[i];
  }
  return out;
}

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
        expect(out).toBe(reference(text));
        expect(/\p{Surrogate}/u.test(out)).toBe(false);
      }),
    );
  });

  it("a writer's chunks join to the storable text of their concatenation, however split (property)", () => {
    const units = fc.string({
      unit: fc.constantFrom("\u0000", "\ud83d", "\ude00", "\ud800", "\udc00", "a", "\uFFFD"),
      maxLength: 24,
    });
    fc.assert(
      fc.property(fc.array(units, { maxLength: 6 }), (chunks) => {
        let written = "";
        const writer = storableWriter({
          append: (chunk: string) => {
            written += chunk;
          },
          complete: () => {},
        } as ProviderMessageWriter);
        for (const chunk of chunks) writer.append(chunk);
        writer.complete();
        expect(written).toBe(reference(chunks.join("")));
      }),
    );
  });

  it("returns text without NUL unchanged", () => {
    expect(storableProviderText("plain \uD83D\uDE00 text")).toBe("plain \uD83D\uDE00 text");
  });
});
