/**
 * Test-only fixtures shared by the citation tests: sample citations, the native
 * `URLSearchParams` (not in the package's ES-only lib types) and fast-check arbitraries.
 */
import fc from "fast-check";
import type { AssistantCitation } from "../schema.ts";

/** A small, valid citation without a comment. */
export const sampleCitation: AssistantCitation = {
  version: 1,
  environmentId: "env-1",
  threadId: "thread-1",
  messageId: "message-1",
  text: "quoted text",
  start: 4,
  end: 15,
  prefix: "the ",
  suffix: " here",
};

/** The platform `URLSearchParams`, typed just enough to serialize a record the way T3 Code did. */
export const NativeURLSearchParams = (
  globalThis as unknown as {
    URLSearchParams: new (init: Record<string, string>) => { toString(): string };
  }
).URLSearchParams;

/**
 * The reference encoder: how existing T3 Code links were written (path segments with
 * encodeURIComponent plus `! ' ( ) *`, the query with URLSearchParams). Dot segments aside,
 * our formatter must produce exactly these bytes.
 */
export function referenceHref(citation: AssistantCitation): string {
  const segment = (id: string) =>
    encodeURIComponent(id).replace(
      /[!'()*]/g,
      (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  const query: Record<string, string> = {
    text: citation.text,
    start: String(citation.start),
    end: String(citation.end),
    prefix: citation.prefix,
    suffix: citation.suffix,
  };
  if (citation.comment !== undefined) query.comment = citation.comment;
  return `t3-citation://v1/${segment(citation.environmentId)}/${segment(citation.threadId)}/${segment(
    citation.messageId,
  )}?${new NativeURLSearchParams(query).toString()}`;
}

/** Characters that stress encoding: URL delimiters, form specials, dots, emoji, BOM, CJK. */
const trickyChar = fc.constantFrom(
  "/",
  "?",
  "#",
  "%",
  "&",
  "=",
  "+",
  ".",
  " ",
  "\t",
  "\n",
  "!",
  "'",
  "(",
  ")",
  "*",
  "~",
  "[",
  "]",
  "<",
  ">",
  "\\",
  "😀",
  "\uFEFF",
  "\u00A0",
  "中",
  "é",
  "e\u0301",
  "%2E",
  "%zz",
);

const mixedUnit = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: trickyChar },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);

/** A string of at most `maxUnits` UTF-16 code units built from `mixedUnit`. */
const mixedString = (minLength: number, maxUnits: number) =>
  fc
    .string({ unit: mixedUnit, minLength, maxLength: maxUnits })
    .filter((value) => value.length >= minLength && value.length <= maxUnits);

const nonBlank = (value: string) => /\S/.test(value);

/** Ids: tricky strings, plus the dot segments `.` and `..`. */
export const idArbitrary = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(".", "..", "...", "%", "a/b", "?x#y", " spaced id ") },
  { weight: 6, arbitrary: mixedString(1, 24).filter(nonBlank) },
);

/** Offsets anywhere in the safe-integer range, `end > start`. */
const offsetsArbitrary = fc
  .tuple(fc.maxSafeNat(), fc.maxSafeNat())
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => (a < b ? { start: a, end: b } : { start: b, end: a }));

/** Any valid citation, with or without a comment (the empty comment included). */
export const citationArbitrary: fc.Arbitrary<AssistantCitation> = fc
  .record({
    environmentId: idArbitrary,
    threadId: idArbitrary,
    messageId: idArbitrary,
    text: mixedString(1, 60).filter(nonBlank),
    offsets: offsetsArbitrary,
    prefix: mixedString(0, 32),
    suffix: mixedString(0, 32),
    comment: fc.option(fc.oneof(fc.constant(""), fc.constant("  "), mixedString(0, 60)), {
      nil: undefined,
    }),
  })
  .map(({ offsets, comment, ...rest }) => {
    const citation: AssistantCitation = { version: 1, ...rest, ...offsets };
    if (comment !== undefined) citation.comment = comment;
    return citation;
  });

/** Arbitrary UTF-16 strings, lone surrogates included. */
export const anyUtf16String = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  maxLength: 80,
});
