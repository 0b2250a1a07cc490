/**
 * What Send and Enter do with the prompt, as pure decisions (no React, no Lexical):
 * - a message is trimmed, blank does nothing, and `validateProviderInput` blocks it client-side
 *   on the larger of its raw and expanded length (the spec's 120,000-character limit);
 * - an answer to a pending user-input request is raw (no trim, no expansion, no limit), and the
 *   editor text fills the first question without a picked option;
 * - after a successful send only the sent text leaves the editor.
 * `useComposerSubmission.ts` runs these decisions against the editor and the network.
 */
import { validateProviderInput } from "@app/citations";
import type { UserInputRequest } from "@app/protocol";

/** What to do with a message prompt. */
export type MessageDecision =
  | { kind: "blank" }
  | { kind: "over-limit"; message: string }
  | { kind: "send"; prompt: string };

/** Decides whether `prompt` (the raw editor text) can be sent, and what is sent. */
export function decideMessage(prompt: string): MessageDecision {
  const trimmed = prompt.trim();
  if (trimmed === "") return { kind: "blank" };
  const check = validateProviderInput(trimmed);
  if (!check.ok) return { kind: "over-limit", message: check.message };
  return { kind: "send", prompt: trimmed };
}

/** What to do with an answer to a pending user-input request. */
export type AnswerDecision =
  /** Every question has an answer; `usedText` says whether the editor text is one of them. */
  | { kind: "answer"; answers: Record<string, string>; usedText: boolean }
  /** Some question has none; `message` is what to tell the user (null: say nothing yet). */
  | { kind: "incomplete"; message: string | null };

/**
 * Combines picked options (`chosen`) with the editor `text`: the text answers the first
 * question without a picked option, as typed (answers are raw: no trimming, no citation
 * expansion, no limit). Blank text answers nothing.
 */
export function decideAnswer(
  request: UserInputRequest,
  text: string,
  chosen: Record<string, string>,
): AnswerDecision {
  const answers: Record<string, string> = { ...chosen };
  let usedText = false;
  for (const question of request.questions) {
    if (answers[question.id] === undefined && !usedText && text.trim() !== "") {
      answers[question.id] = text;
      usedText = true;
    }
  }
  const missing = request.questions.filter((question) => answers[question.id] === undefined);
  if (missing.length === 0) return { kind: "answer", answers, usedText };
  // Pressing Enter in an empty editor with nothing picked is not worth a message.
  const tried = usedText || Object.keys(chosen).length > 0;
  return {
    kind: "incomplete",
    message: tried ? `Please also answer: ${missing[0]!.prompt}` : null,
  };
}

/**
 * The editor text to keep after `sent` went out while the editor now holds `current`: nothing
 * when unchanged, what was typed after it during the send, or everything when the sent text is
 * no longer at the start (the user rewrote it meanwhile).
 */
export function promptAfterSend(current: string, sent: string): string {
  if (current === sent) return "";
  return current.startsWith(sent) ? current.slice(sent.length).trimStart() : current;
}

/** A readable message for a failed send or answer. */
export function submissionErrorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === "object" && error !== null && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message) return message;
  }
  return "Something went wrong. Your message is still in the composer.";
}
