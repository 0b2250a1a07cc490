/**
 * Pasted text can carry lone UTF-16 surrogates (half of an emoji cut by another program). The
 * server refuses them (400 `invalid_text`), so the composer replaces each with U+FFFD, the
 * replacement character, and tells the user how many it replaced.
 */
import { isWellFormedUtf16 } from "@app/citations";

// The one pattern of a lone surrogate, for replacing them (checks use the kernel's
// `isWellFormedUtf16`): a high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with every lone surrogate replaced by U+FFFD, and how many were replaced. */
export function replaceLoneSurrogates(text: string): { text: string; replaced: number } {
  if (isWellFormedUtf16(text)) return { text, replaced: 0 };
  let replaced = 0;
  const cleaned = text.replace(LONE_SURROGATE, () => {
    replaced++;
    return "\ufffd";
  });
  return { text: cleaned, replaced };
}

/** What the composer says after cleaning a paste. */
export function pasteCleanedMessage(replaced: number): string {
  return replaced === 1
    ? "The pasted text had 1 broken character (half of an emoji or symbol); it was replaced with �."
    : `The pasted text had ${replaced} broken characters (halves of emoji or symbols); they were replaced with �.`;
}
