import { PROVIDER_INPUT_MAX_CHARS } from "./constants.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";

/** Result of {@link validateProviderInput}. */
export type ProviderInputValidation =
  | { ok: true; length: number }
  | { ok: false; length: number; excess: number; message: string };

/**
 * Result of {@link checkProviderInput}: the validation plus `providerInput`, the trimmed prompt
 * with its citations expanded (what an adapter is sent when `ok`).
 */
export type ProviderInputCheck =
  | { ok: true; length: number; providerInput: string }
  | { ok: false; length: number; excess: number; message: string; providerInput: string };

/** `1234567` -> `"1,234,567"`, independent of the runtime's locale data. */
function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The 120,000-character provider input rule, expanding once: the prompt is trimmed, then
 * measured both raw and after citation expansion; the larger length counts. Over the limit the
 * result says by how many characters, e.g.
 * `"This message is 1,234 characters over the 120,000-character limit."`. The server sends
 * `providerInput` on, so it never re-codes the rule or expands twice.
 */
export function checkProviderInput(prompt: string): ProviderInputCheck {
  const trimmed = typeof prompt === "string" ? prompt.trim() : "";
  const providerInput = expandAssistantCitationsForProvider(trimmed);
  const length = Math.max(trimmed.length, providerInput.length);
  if (length <= PROVIDER_INPUT_MAX_CHARS) return { ok: true, length, providerInput };
  const excess = length - PROVIDER_INPUT_MAX_CHARS;
  return {
    ok: false,
    length,
    excess,
    message: `This message is ${formatCount(excess)} ${excess === 1 ? "character" : "characters"} over the ${formatCount(PROVIDER_INPUT_MAX_CHARS)}-character limit.`,
    providerInput,
  };
}

/**
 * Checks a prompt against the 120,000-character provider input limit: {@link checkProviderInput}
 * without the expanded text (DESIGN.md section 4's shape).
 */
export function validateProviderInput(prompt: string): ProviderInputValidation {
  const { providerInput: _expanded, ...validation } = checkProviderInput(prompt);
  return validation;
}
