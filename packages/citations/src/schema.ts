import { z } from "zod";
import {
  ASSISTANT_CITATION_CONTEXT_LENGTH,
  ASSISTANT_CITATION_MAX_COMMENT_LENGTH,
  ASSISTANT_CITATION_MAX_ID_LENGTH,
  ASSISTANT_CITATION_MAX_TEXT_LENGTH,
} from "./constants.ts";

/** `String.prototype.isWellFormed` (ES2024, Node 20+); TypeScript's ES2023 lib lacks it. */
type MaybeWellFormed = { isWellFormed?: (this: string) => boolean };

/**
 * True when `value` is well-formed UTF-16: every high surrogate is directly followed by a low
 * surrogate and no low surrogate stands alone. Lone surrogates cannot be percent-encoded or
 * UTF-8 encoded, so a citation holding one could not round-trip. Uses the engine's
 * `String.prototype.isWellFormed` where there is one (it is several times faster).
 */
export function isWellFormedUtf16(value: string): boolean {
  const native = (String.prototype as MaybeWellFormed).isWellFormed;
  if (native !== undefined) return native.call(value);
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit >= 0xdc00) return false;
    const next = value.charCodeAt(index + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    index++;
  }
  return true;
}

/** True when `value` holds at least one non-whitespace character (JavaScript `\s`). */
export function hasNonWhitespace(value: string): boolean {
  return /\S/.test(value);
}

/**
 * A string limited in UTF-16 code units (`value.length`). Zod 4's own `.min()`/`.max()` count
 * code points, which would let an emoji-heavy quote exceed the wire limits, so the bounds are
 * refinements here.
 */
function utf16String(field: string, minimum: number, maximum: number) {
  return z
    .string()
    .refine((value) => value.length >= minimum, {
      error:
        minimum === 1
          ? `${field} must not be empty`
          : `${field} must be at least ${minimum} UTF-16 code units`,
    })
    .refine((value) => value.length <= maximum, {
      error: `${field} must be at most ${maximum} UTF-16 code units`,
    })
    .refine(isWellFormedUtf16, {
      error: `${field} must be well-formed UTF-16 (no lone surrogates)`,
    });
}

const idSchema = (field: string) =>
  utf16String(field, 1, ASSISTANT_CITATION_MAX_ID_LENGTH).refine(hasNonWhitespace, {
    error: `${field} must not be blank`,
  });

const contextSchema = (field: string) => utf16String(field, 0, ASSISTANT_CITATION_CONTEXT_LENGTH);

const offsetSchema = (field: string) =>
  z.int({ error: `${field} must be a safe integer` }).min(0, {
    error: `${field} must be nonnegative`,
  });

/**
 * Zod schema of a version 1 assistant citation, with every limit of the wire format:
 * ids 1-512 code units and not blank; `text` 1-8,000 units with a non-whitespace character;
 * `comment` 0-8,000 units; `prefix`/`suffix` 0-32 units; `start`/`end` nonnegative safe
 * integers with `end > start`; every string well-formed UTF-16. Unknown keys are rejected.
 */
export const AssistantCitationSchema = z
  .strictObject({
    version: z.literal(1),
    environmentId: idSchema("environmentId"),
    threadId: idSchema("threadId"),
    messageId: idSchema("messageId"),
    text: utf16String("text", 1, ASSISTANT_CITATION_MAX_TEXT_LENGTH).refine(hasNonWhitespace, {
      error: "text must contain a non-whitespace character",
    }),
    start: offsetSchema("start"),
    end: offsetSchema("end"),
    prefix: contextSchema("prefix"),
    suffix: contextSchema("suffix"),
    comment: utf16String("comment", 0, ASSISTANT_CITATION_MAX_COMMENT_LENGTH).optional(),
  })
  .refine((citation) => citation.end > citation.start, {
    error: "end must be greater than start",
    path: ["end"],
  });

/**
 * A version 1 assistant citation: the cited excerpt (`text`), where it came from (three ids),
 * a selector locating it in the rendered source (`start`, `end`, `prefix`, `suffix`) and the
 * user's optional `comment`.
 */
export type AssistantCitation = z.infer<typeof AssistantCitationSchema>;

const fitsUtf16 = (value: string, minimum: number, maximum: number) =>
  value.length >= minimum && value.length <= maximum && isWellFormedUtf16(value);

const isId = (value: string) =>
  fitsUtf16(value, 1, ASSISTANT_CITATION_MAX_ID_LENGTH) && hasNonWhitespace(value);

const isOffset = (value: number) => Number.isSafeInteger(value) && value >= 0;

/**
 * The limits of {@link AssistantCitationSchema} checked by hand, several times faster than
 * `safeParse` (the href parser runs it once per link). For an object of exactly the
 * {@link AssistantCitation} shape (own `version: 1`, string ids, `text`, `prefix`, `suffix` and
 * optional `comment`, number `start`/`end`, no other keys) it returns the same as
 * `AssistantCitationSchema.safeParse(candidate).success`; a property test holds the two
 * together, so change both when a limit changes. It does not check the shape itself.
 */
export function satisfiesAssistantCitationLimits(candidate: AssistantCitation): boolean {
  return (
    candidate.version === 1 &&
    isId(candidate.environmentId) &&
    isId(candidate.threadId) &&
    isId(candidate.messageId) &&
    fitsUtf16(candidate.text, 1, ASSISTANT_CITATION_MAX_TEXT_LENGTH) &&
    hasNonWhitespace(candidate.text) &&
    isOffset(candidate.start) &&
    isOffset(candidate.end) &&
    candidate.end > candidate.start &&
    fitsUtf16(candidate.prefix, 0, ASSISTANT_CITATION_CONTEXT_LENGTH) &&
    fitsUtf16(candidate.suffix, 0, ASSISTANT_CITATION_CONTEXT_LENGTH) &&
    (candidate.comment === undefined ||
      fitsUtf16(candidate.comment, 0, ASSISTANT_CITATION_MAX_COMMENT_LENGTH))
  );
}

/** True when `value` is a valid {@link AssistantCitation}. */
export function isAssistantCitation(value: unknown): value is AssistantCitation {
  return AssistantCitationSchema.safeParse(value).success;
}
