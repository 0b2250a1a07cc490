/**
 * The live length count near the limit, as a pure decision (no React, no Lexical). The number is
 * the send check's own (`validateProviderInput`): the larger of the trimmed prompt's raw and
 * expanded lengths, so the count, the disabled Send and the alert after Enter always agree.
 */
import {
  ASSISTANT_CITATION_LINK_OPENER,
  PROVIDER_INPUT_MAX_CHARS,
  validateProviderInput,
} from "@app/citations";

/** The count shows from 90% of the limit (108,000 characters). */
export const DRAFT_COUNT_FROM = Math.floor(PROVIDER_INPUT_MAX_CHARS * 0.9);

/** What the composer shows about the draft's length. */
export type DraftLengthStatus =
  /** Well under the limit: nothing shown. */
  | { kind: "quiet" }
  /** From 90% of the limit: "118,432 / 120,000". */
  | { kind: "near"; length: number; label: string }
  /** Over: "1,234 over", Send disabled, and why. */
  | { kind: "over"; length: number; excess: number; label: string; reason: string };

/** The status of an empty or short draft. */
export const QUIET: DraftLengthStatus = { kind: "quiet" };

/** `1234567` -> `"1,234,567"`, whatever the runtime's locale. */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The length status of `prompt`, the editor's raw prompt string. */
export function draftLengthStatus(prompt: string): DraftLengthStatus {
  // Expansion only ever adds characters where a citation link is: without one, and well under
  // the count's threshold, there is nothing to measure.
  if (prompt.length < DRAFT_COUNT_FROM && !prompt.includes(ASSISTANT_CITATION_LINK_OPENER))
    return QUIET;
  const check = validateProviderInput(prompt);
  const limit = formatCount(PROVIDER_INPUT_MAX_CHARS);
  if (check.ok) {
    if (check.length < DRAFT_COUNT_FROM) return QUIET;
    return { kind: "near", length: check.length, label: `${formatCount(check.length)} / ${limit}` };
  }
  // When the typed text alone fits, the quotes' full text (sent with them) is what tips it over.
  const quotesTipIt = prompt.trim().length <= PROVIDER_INPUT_MAX_CHARS;
  return {
    kind: "over",
    length: check.length,
    excess: check.excess,
    label: `${formatCount(check.excess)} over`,
    reason: quotesTipIt
      ? `Too long to send: quoted text counts in full toward the ${limit}-character limit.`
      : `Too long to send: the limit is ${limit} characters.`,
  };
}
