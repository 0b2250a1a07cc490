import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUtf16String, citationArbitrary } from "./__fixtures__/citations.ts";
import { ASSISTANT_CITATION_HREF_PREFIX, ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { formatAssistantCitationHref, parseAssistantCitationHref } from "./href.ts";
import { decodeUriComponentOrNull } from "./percentDecode.ts";
import {
  type AssistantCitation,
  AssistantCitationSchema,
  isWellFormedUtf16,
  satisfiesAssistantCitationLimits,
} from "./schema.ts";

/** `decodeURIComponent` with `+` as a space where asked, `null` where it throws. */
function referenceDecode(value: string, plusIsSpace: boolean): string | null {
  try {
    return decodeURIComponent(plusIsSpace ? value.replaceAll("+", " ") : value);
  } catch {
    return null;
  }
}

const hexPair = (byte: number) => byte.toString(16).padStart(2, "0");
/** `%XX` escapes of `bytes`, each hex digit in a random case. */
const escapes = (bytes: number[]) =>
  fc
    .array(fc.boolean(), { minLength: bytes.length * 2, maxLength: bytes.length * 2 })
    .map((upper) =>
      bytes
        .map((byte, index) => {
          const [high, low] = hexPair(byte);
          const digit = (char = "", up = false) => (up ? char.toUpperCase() : char);
          return `%${digit(high, upper[2 * index])}${digit(low, upper[2 * index + 1])}`;
        })
        .join(""),
    );

/** The UTF-8 bytes of any code point, surrogates included (as the invalid 3-byte form). */
function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) {
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  }
  return [
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 0x3f),
    0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f),
  ];
}

/** Overlong encodings: a code point written with more bytes than it needs. */
function overlongBytes(codePoint: number, length: 2 | 3 | 4): number[] {
  if (length === 2) return [0xc0 | ((codePoint >> 6) & 0x1f), 0x80 | (codePoint & 0x3f)];
  if (length === 3) {
    return [
      0xe0 | ((codePoint >> 12) & 0x0f),
      0x80 | ((codePoint >> 6) & 0x3f),
      0x80 | (codePoint & 0x3f),
    ];
  }
  return [
    0xf0 | ((codePoint >> 18) & 0x07),
    0x80 | ((codePoint >> 12) & 0x3f),
    0x80 | ((codePoint >> 6) & 0x3f),
    0x80 | (codePoint & 0x3f),
  ];
}

const codePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0x7ff }),
  fc.integer({ min: 0x800, max: 0xffff }), // surrogates included
  fc.integer({ min: 0xd7f0, max: 0xe010 }), // around the surrogate range
  fc.integer({ min: 0x10000, max: 0x10ffff }),
  fc.integer({ min: 0x10fff0, max: 0x1fffff }), // above U+10FFFF, still 4 bytes
);

/** One piece of a percent-encoded string; the pieces are concatenated. */
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 255 }).chain((byte) => escapes([byte])) },
  { weight: 4, arbitrary: codePoint.chain((point) => escapes(utf8Bytes(point))) },
  {
    weight: 2,
    arbitrary: fc.tuple(codePoint, fc.nat()).chain(([point, cut]) => {
      const bytes = utf8Bytes(point);
      return escapes(bytes.slice(0, cut % bytes.length)); // a truncated sequence
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 0, max: 0xffff }),
        fc.constantFrom(2 as const, 3 as const, 4 as const),
      )
      .chain(([point, length]) => escapes(overlongBytes(point, length))),
  },
  { weight: 2, arbitrary: fc.constantFrom("+", "%", "%2B", "%2b", "%25", "%2", "%G1", "%%", " ") },
  { weight: 3, arbitrary: fc.string({ maxLength: 4 }) }, // ASCII
  { weight: 1, arbitrary: fc.constantFrom("\u{1F642}", "\u00e9", "\u6570", "\uFEFF") },
  { weight: 1, arbitrary: fc.constantFrom("\uD800", "\uDBFF", "\uDC00", "\uDFFF") }, // lone surrogates
  { weight: 1, arbitrary: anyUtf16String.map((value) => value.slice(0, 3)) },
);

const encodedLike = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(""));

describe("decodeUriComponentOrNull agrees with decodeURIComponent", () => {
  it("on strings mixing escapes, UTF-8 (valid, truncated, overlong), `+`, ASCII, emoji and lone surrogates", () => {
    fc.assert(
      fc.property(encodedLike, (value) => {
        expect(decodeUriComponentOrNull(value, false)).toBe(referenceDecode(value, false));
        expect(decodeUriComponentOrNull(value, true)).toBe(referenceDecode(value, true));
      }),
      { numRuns: 3000 },
    );
  });

  it("on the percent-encoding of arbitrary strings, and on its corruptions", () => {
    const encoded = fc
      .string({ unit: "binary", maxLength: 40 })
      .map((value) => encodeURIComponent(value));
    const corrupted = fc
      .tuple(encoded, fc.nat(), fc.nat({ max: 4 }), encodedLike)
      .map(([value, at, remove, insert]) => {
        const index = at % (value.length + 1);
        return value.slice(0, index) + insert.slice(0, 6) + value.slice(index + remove);
      });
    fc.assert(
      fc.property(fc.oneof(encoded, corrupted), (value) => {
        expect(decodeUriComponentOrNull(value, false)).toBe(referenceDecode(value, false));
        expect(decodeUriComponentOrNull(value, true)).toBe(referenceDecode(value, true));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("without String.prototype.isWellFormed (engines before ES2024)", () => {
  it("isWellFormedUtf16 falls back to a loop that agrees with it, and the decoder still agrees", () => {
    const descriptor = Object.getOwnPropertyDescriptor(String.prototype, "isWellFormed");
    const native = descriptor?.value as ((this: string) => boolean) | undefined;
    expect(typeof native).toBe("function"); // Node 20 has it; the loop is the fallback
    if (descriptor === undefined || native === undefined) return;
    const surrogateHeavy = fc.oneof(
      anyUtf16String,
      fc.string({
        unit: fc.constantFrom("a", "\uD800", "\uDBFF", "\uDC00", "\uDFFF", "\u{1F642}"),
      }),
    );
    delete (String.prototype as { isWellFormed?: unknown }).isWellFormed;
    try {
      fc.assert(
        fc.property(surrogateHeavy, (value) => {
          expect(isWellFormedUtf16(value)).toBe(native.call(value));
        }),
        { numRuns: 2000 },
      );
      fc.assert(
        fc.property(encodedLike, (value) => {
          expect(decodeUriComponentOrNull(value, true)).toBe(referenceDecode(value, true));
        }),
        { numRuns: 500 },
      );
    } finally {
      Object.defineProperty(String.prototype, "isWellFormed", descriptor);
    }
    expect(String.prototype).toHaveProperty("isWellFormed", native);
  });
});

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const LIMIT_LENGTHS = [0, 1, 2, 31, 32, 33, 34, 511, 512, 513, 514, 7999, 8000, 8001, 8002];
const FILLS = ["a", " ", "\u{1F642}", "a\u{1F642}", " \u00a0"];
const TWEAKS = ["none", "high-start", "low-end", "word-end", "blank-end"] as const;

/** `length` units of `fill` repeated (an emoji may be cut in half), then one tweak. */
function sizedString(length: number, fill: string, tweak: (typeof TWEAKS)[number]): string {
  const value = fill.repeat(Math.ceil(length / fill.length) + 1).slice(0, length);
  if (length === 0 || tweak === "none") return value;
  if (tweak === "high-start") return `\uD800${value.slice(1)}`;
  if (tweak === "low-end") return `${value.slice(0, -1)}\uDC00`;
  if (tweak === "word-end") return `${value.slice(0, -1)}x`;
  return `${value.slice(0, -1)} `;
}

/** Strings at and around every length limit, plus short tricky ones. */
const candidateString = fc.oneof(
  fc.string({
    unit: fc.constantFrom(
      "a",
      "Z",
      " ",
      "\t",
      "\n",
      "\u00a0",
      "\u2028",
      "\uFEFF",
      "\u3000",
      "\u00e9",
    ),
    maxLength: 12,
  }),
  fc.string({
    unit: fc.constantFrom("a", " ", "\u{1F642}", "\uD800", "\uDC00", "\uDBFF\uDFFF"),
    maxLength: 12,
  }),
  fc
    .tuple(fc.constantFrom(...LIMIT_LENGTHS), fc.constantFrom(...FILLS), fc.constantFrom(...TWEAKS))
    .map(([length, fill, tweak]) => sizedString(length, fill, tweak)),
);

const candidateNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    1.5,
    -0.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    MAX_SAFE,
    MAX_SAFE - 1,
    MAX_SAFE + 1,
    MAX_SAFE + 2,
    2 ** 60,
    Number("9999999999999999"), // the largest 16-digit offset, 1e16 as a double
    Number.MIN_SAFE_INTEGER,
    Number.MIN_VALUE,
    Number.MAX_VALUE,
  ),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double(),
);

const FIELDS = [
  "environmentId",
  "threadId",
  "messageId",
  "text",
  "prefix",
  "suffix",
  "comment",
  "start",
  "end",
] as const;
type Field = (typeof FIELDS)[number];

/** One change to a citation: a field set to a tricky value, the comment dropped, or offsets tied. */
const change = fc.oneof(
  fc.tuple(fc.constantFrom(...FIELDS), candidateString, candidateNumber, fc.boolean()),
  fc
    .tuple(fc.constantFrom(-1, 0, 1), fc.boolean())
    .map(([delta, moveEnd]) => ["offsets", delta, moveEnd] as const),
);
type Change = [Field, string, number, boolean] | readonly ["offsets", number, boolean];

/**
 * A citation-shaped object: a valid citation with one change (most runs, so that each limit
 * is probed on its own) or up to three.
 */
const candidate: fc.Arbitrary<AssistantCitation> = fc
  .tuple(
    citationArbitrary,
    fc.oneof(
      { weight: 3, arbitrary: change.map((one) => [one]) },
      { weight: 1, arbitrary: fc.array(change, { maxLength: 3 }) },
    ),
  )
  .map(([citation, changes]) => {
    const changed: Record<string, unknown> = { ...citation };
    for (const item of changes as Change[]) {
      if (item[0] === "offsets") {
        const [, delta, moveEnd] = item;
        if (moveEnd) changed.end = citation.start + delta;
        else changed.start = citation.end + delta;
        continue;
      }
      const [field, text, number, drop] = item;
      if (field === "start" || field === "end") changed[field] = number;
      else if (field === "comment" && drop) delete changed.comment;
      else changed[field] = text;
    }
    return changed as unknown as AssistantCitation;
  });

describe("satisfiesAssistantCitationLimits", () => {
  it("agrees with AssistantCitationSchema.safeParse for every string field at every limit", () => {
    const base = fc.sample(citationArbitrary, { numRuns: 1, seed: 7 })[0] as AssistantCitation;
    const stringFields = FIELDS.filter((field) => field !== "start" && field !== "end");
    let checked = 0;
    for (const field of stringFields) {
      for (const length of LIMIT_LENGTHS) {
        for (const fill of FILLS) {
          for (const tweak of TWEAKS) {
            const value = { ...base, [field]: sizedString(length, fill, tweak) };
            const expected = AssistantCitationSchema.safeParse(value).success;
            expect(satisfiesAssistantCitationLimits(value), `${field} ${length} ${tweak}`).toBe(
              expected,
            );
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(7 * 15 * 5 * 5);
  });

  it("agrees with AssistantCitationSchema.safeParse on citation-shaped objects", () => {
    let valid = 0;
    fc.assert(
      fc.property(candidate, (value) => {
        const result = AssistantCitationSchema.safeParse(value);
        expect(satisfiesAssistantCitationLimits(value)).toBe(result.success);
        if (result.success) {
          valid++;
          // The parser returns its candidate instead of zod's copy: they must be equal (the
          // parser test below also checks that the key order matches).
          expect(result.data).toStrictEqual(value);
        }
      }),
      { numRuns: 6000 },
    );
    // Both verdicts must be exercised, or the agreement above proves little.
    expect(valid).toBeGreaterThan(600);
    expect(valid).toBeLessThan(5400);
  });
});

/** The parser before the hand-written decoder: `decodeURIComponent` plus the zod schema. */
function referenceParse(href: string): AssistantCitation | null {
  if (typeof href !== "string") return null;
  if (href.length > ASSISTANT_CITATION_MAX_HREF_LENGTH) return null;
  if (!href.startsWith(ASSISTANT_CITATION_HREF_PREFIX)) return null;
  if (href.includes("#")) return null;
  const queryStart = href.indexOf("?", ASSISTANT_CITATION_HREF_PREFIX.length);
  if (queryStart < 0) return null;
  const segments = href.slice(ASSISTANT_CITATION_HREF_PREFIX.length, queryStart).split("/");
  if (segments.length !== 3) return null;
  if (segments.some((segment) => segment === "." || segment === "..")) return null;
  const keys = ["text", "start", "end", "prefix", "suffix", "comment"];
  const values: Record<string, string> = {};
  const ids: string[] = [];
  try {
    for (const segment of segments) ids.push(decodeURIComponent(segment));
    for (const part of href.slice(queryStart + 1).split("&")) {
      const equals = part.indexOf("=");
      if (equals < 0) return null;
      const key = decodeURIComponent(part.slice(0, equals).replaceAll("+", " "));
      if (!keys.includes(key) || values[key] !== undefined) return null;
      values[key] = decodeURIComponent(part.slice(equals + 1).replaceAll("+", " "));
    }
  } catch {
    return null;
  }
  const { text, start, end, prefix, suffix, comment } = values;
  if (text === undefined || prefix === undefined || suffix === undefined) return null;
  if (start === undefined || end === undefined) return null;
  if (!/^[0-9]{1,16}$/.test(start) || !/^[0-9]{1,16}$/.test(end)) return null;
  const candidate: Record<string, unknown> = {
    version: 1,
    environmentId: ids[0],
    threadId: ids[1],
    messageId: ids[2],
    text,
    start: Number(start),
    end: Number(end),
    prefix,
    suffix,
  };
  if (comment !== undefined) candidate.comment = comment;
  const result = AssistantCitationSchema.safeParse(candidate);
  return result.success ? result.data : null;
}

describe("parseAssistantCitationHref agrees with the decodeURIComponent + zod reference", () => {
  it("on valid hrefs and on hrefs with encoded-looking pieces spliced in", () => {
    const spliced = fc
      .tuple(citationArbitrary, fc.nat(), fc.nat({ max: 6 }), encodedLike)
      .map(([citation, at, remove, insert]) => {
        const href = formatAssistantCitationHref(citation);
        const index = at % (href.length + 1);
        return href.slice(0, index) + insert.slice(0, 12) + href.slice(index + remove);
      });
    const assembled = fc
      .tuple(
        fc.array(fc.oneof(encodedLike, fc.constantFrom("", ".", "..", "%2E", "env")), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(
          fc.tuple(
            fc.constantFrom(
              "text",
              "start",
              "end",
              "prefix",
              "suffix",
              "comment",
              "%74ext",
              "x",
              "",
            ),
            fc.oneof(encodedLike, fc.constantFrom("0", "7", "0012", "9007199254740991", "1e3")),
            fc.constantFrom("=", "", "=="),
          ),
          { maxLength: 8 },
        ),
      )
      .map(
        ([segments, parts]) =>
          `${ASSISTANT_CITATION_HREF_PREFIX}${segments.join("/")}?${parts
            .map(([key, value, equals]) => `${key}${equals}${value}`)
            .join("&")}`,
      );
    fc.assert(
      fc.property(
        fc.oneof(citationArbitrary.map(formatAssistantCitationHref), spliced, assembled),
        (href) => {
          const expected = referenceParse(href);
          const actual = parseAssistantCitationHref(href);
          expect(actual).toStrictEqual(expected);
          if (actual !== null && expected !== null) {
            expect(Object.keys(actual)).toEqual(Object.keys(expected));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
