import { PROVIDER_INPUT_MAX_CHARS } from "./constants.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";

/** Result of {@link validateProviderInput}. */
export type ProviderInputValidation =
  | { ok: true; length: number }
  | { ok: false; length: number; excess: number; message: string };

/** `1234567` -> `"1,234,567"`, independent of the runtime's locale data. */
function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Checks a prompt against the 120,000-character provider input limit. The prompt is trimmed,
 * then measured both raw and after citation expansion; the larger length counts. When over
 * the limit the result says by how many characters, e.g.
 * `"This message is 1,234 characters over the 120,000-character limit."`.
 */
export function validateProviderInput(prompt: string): ProviderInputValidation {
  const trimmed = typeof prompt === "string" ? prompt.trim() : "";
  const length = Math.max(trimmed.length, expandAssistantCitationsForProvider(trimmed).length);
  if (length <= PROVIDER_INPUT_MAX_CHARS) return { ok: true, length };
  const excess = length - PROVIDER_INPUT_MAX_CHARS;
  return {
    ok: false,
    length,
    excess,
    message: `This message is ${formatCount(excess)} ${excess === 1 ? "character" : "characters"} over the ${formatCount(PROVIDER_INPUT_MAX_CHARS)}-character limit.`,
  };
}
