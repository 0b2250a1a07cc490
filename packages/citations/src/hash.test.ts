import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary, sampleCitation } from "./__fixtures__/citations.ts";
import { formatAssistantCitationHash, parseAssistantCitationHash } from "./hash.ts";
import { formatAssistantCitationHref } from "./href.ts";

const href = formatAssistantCitationHref(sampleCitation);

/** Reference base64url built on Node's Buffer (present at test time, absent from our lib types). */
const NodeBuffer = (
  globalThis as unknown as {
    Buffer: { from(value: string, encoding: string): { toString(encoding: string): string } };
  }
).Buffer;

describe("formatAssistantCitationHash", () => {
  it("is #assistant-citation= plus unpadded base64url of the UTF-8 href", () => {
    const hash = formatAssistantCitationHash(href);
    expect(hash).toBe(`#assistant-citation=${NodeBuffer.from(href, "utf8").toString("base64url")}`);
    expect(hash).toMatch(/^#assistant-citation=[A-Za-z0-9_-]+$/);
  });

  it("encodes non-ASCII text as UTF-8, matching Buffer for every tail length", () => {
    for (const value of ["", "a", "ab", "abc", "é", "😀", "中文", "\uFEFF?&=/+"]) {
      expect(formatAssistantCitationHash(value)).toBe(
        `#assistant-citation=${NodeBuffer.from(value, "utf8").toString("base64url")}`,
      );
    }
  });
});

describe("parseAssistantCitationHash", () => {
  it("round-trips with and without the leading #", () => {
    const hash = formatAssistantCitationHash(href);
    expect(parseAssistantCitationHash(hash)).toStrictEqual(sampleCitation);
    expect(parseAssistantCitationHash(hash.slice(1))).toStrictEqual(sampleCitation);
  });

  it("works for a 160,000-character href", () => {
    const longHref = `${href}&comment=${"c".repeat(160_000)}`.slice(0, 160_000);
    const hash = formatAssistantCitationHash(longHref);
    expect(hash.length).toBeGreaterThan(213_000);
    // Invalid as a citation (the comment is too long) but decoded without a stack overflow.
    expect(parseAssistantCitationHash(hash)).toBeNull();
    const big = { ...sampleCitation, text: "中".repeat(8000), comment: "文".repeat(8000) };
    const bigHash = formatAssistantCitationHash(formatAssistantCitationHref(big));
    expect(parseAssistantCitationHash(bigHash)).toStrictEqual(big);
  });

  it("returns null for other hashes, bad base64url, bad UTF-8 and bad hrefs", () => {
    const valid = formatAssistantCitationHash(href).slice(1);
    const encode = (bytes: number[]) =>
      `assistant-citation=${NodeBuffer.from(String.fromCharCode(...bytes), "latin1").toString("base64url")}`;
    const cases = [
      "",
      "#",
      "#assistant-citation=",
      "#other=abc",
      `#Assistant-citation=${valid.slice(19)}`,
      `${valid}=`,
      `${valid}==`,
      `${valid.slice(0, 30)}+${valid.slice(31)}`,
      `${valid.slice(0, 30)}/${valid.slice(31)}`,
      `${valid} `,
      "assistant-citation=QUJDR", // 5 characters: a lone trailing character is never a byte
      "assistant-citation=QR", // non-zero padding bits
      encode([0xc3]), // truncated sequence
      encode([0xc0, 0xaf]), // overlong
      encode([0xed, 0xa0, 0x80]), // encoded surrogate
      encode([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
      encode([0xff]),
      `#assistant-citation=${NodeBuffer.from("https://example.com", "utf8").toString("base64url")}`,
    ];
    for (const hash of cases) expect(parseAssistantCitationHash(hash)).toBeNull();
    expect(parseAssistantCitationHash(undefined as unknown as string)).toBeNull();
  });

  it("round-trips every valid citation (property)", () => {
    fc.assert(
      fc.property(citationArbitrary, (citation) => {
        const hash = formatAssistantCitationHash(formatAssistantCitationHref(citation));
        expect(parseAssistantCitationHash(hash)).toStrictEqual(citation);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on arbitrary input (property)", () => {
    const base64ish = fc.string({
      unit: fc.constantFrom(
        ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/#",
      ),
      maxLength: 60,
    });
    fc.assert(
      fc.property(
        fc.oneof(
          anyUtf16String,
          base64ish.map((b) => `#assistant-citation=${b}`),
        ),
        (hash) => {
          const parsed = parseAssistantCitationHash(hash);
          expect(parsed === null || typeof parsed.text === "string").toBe(true);
        },
      ),
    );
  });

  it("encodes arbitrary strings exactly like Buffer (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (value) => {
        const hash = formatAssistantCitationHash(value);
        expect(hash.slice("#assistant-citation=".length)).toBe(
          NodeBuffer.from(value, "utf8").toString("base64url"),
        );
      }),
    );
  });

  it("decodes multi-byte UTF-8 back to the same characters (property)", () => {
    // Raw (unencoded) characters in a query value pass through the href parser unchanged,
    // so the parsed comment shows exactly what the UTF-8 decoder produced.
    const rawComment = fc
      .string({ unit: "binary", maxLength: 40 })
      .filter((value) => !/[&#%+]/.test(value));
    fc.assert(
      fc.property(rawComment, (comment) => {
        const hash = formatAssistantCitationHash(`${href}&comment=${comment}`);
        expect(parseAssistantCitationHash(hash)?.comment).toBe(comment);
      }),
    );
  });
});
