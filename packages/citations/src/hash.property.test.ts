/**
 * The platform-based hash (`hash.ts`) against the hand-written one it replaced
 * (`__fixtures__/handWrittenHash.ts`): the same hash for every string, and the same answer
 * (the same string, or null) for every payload, strict rejections included. Links shared before
 * the swap must keep opening, and no new hash may be accepted that was refused before.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary } from "./__fixtures__/citations.ts";
import { handWrittenDecodeHash, handWrittenFormatHash } from "./__fixtures__/handWrittenHash.ts";
import { formatAssistantCitationHash, hrefOfAssistantCitationHash } from "./hash.ts";
import { formatAssistantCitationHref } from "./href.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Bytes as unpadded base64url, written independently of both implementations. */
const NodeBuffer = (
  globalThis as unknown as {
    Buffer: { from(bytes: Uint8Array): { toString(encoding: "base64url"): string } };
  }
).Buffer;

/** Strings a user or a router could put after `assistant-citation=`. */
const payloadArbitrary = fc.oneof(
  // Canonical encodings of arbitrary bytes: invalid UTF-8, BOMs, every tail length.
  fc.uint8Array({ maxLength: 64 }).map((bytes) => NodeBuffer.from(bytes).toString("base64url")),
  // Canonical encodings of well-formed text.
  anyUtf16String.map((text) => handWrittenFormatHash(text).slice("#assistant-citation=".length)),
  // Alphabet soup: non-canonical tails, lengths of 4n + 1.
  fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 40 }),
  // Near misses: a canonical payload with one forgiving-base64 character spliced in.
  fc
    .tuple(
      fc.uint8Array({ minLength: 1, maxLength: 48 }),
      fc.nat(),
      fc.constantFrom("=", "==", " ", "\n", "\t", "+", "/", "%", ".", "é", "\u00ff", "中", ""),
    )
    .map(([bytes, at, insert]) => {
      const payload = NodeBuffer.from(bytes).toString("base64url");
      const index = at % (payload.length + 1);
      return payload.slice(0, index) + insert + payload.slice(index);
    }),
);

describe("hash: platform encoders against the hand-written reference", () => {
  it("formats the same hash for every string, lone surrogates included", () => {
    fc.assert(
      fc.property(anyUtf16String, (text) => {
        expect(formatAssistantCitationHash(text)).toBe(handWrittenFormatHash(text));
      }),
      { numRuns: 5000 },
    );
  });

  it("formats the same hash for every valid citation href", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        const href = formatAssistantCitationHref(citation);
        expect(formatAssistantCitationHash(href)).toBe(handWrittenFormatHash(href));
      }),
      { numRuns: 1000 },
    );
  });

  it("decodes every payload to the same string or the same refusal", () => {
    fc.assert(
      fc.property(payloadArbitrary, fc.boolean(), (payload, withHash) => {
        const hash = `${withHash ? "#" : ""}assistant-citation=${payload}`;
        expect(hrefOfAssistantCitationHash(hash)).toBe(handWrittenDecodeHash(hash));
      }),
      { numRuns: 20_000 },
    );
  });

  it("keeps a leading byte order mark and refuses what the strict decoder refused", () => {
    const bom = formatAssistantCitationHash("\uFEFFx");
    expect(hrefOfAssistantCitationHash(bom)).toBe("\uFEFFx");
    const valid = formatAssistantCitationHash("abcd").slice(1);
    for (const hash of [`${valid}=`, `${valid} `, " ", `${valid.slice(0, -1)}+`]) {
      expect(hrefOfAssistantCitationHash(hash)).toBeNull();
      expect(handWrittenDecodeHash(hash)).toBeNull();
    }
  });
});
