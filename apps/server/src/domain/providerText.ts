/**
 * Provider output as it is stored and sent: NUL (U+0000) becomes U+FFFD on every store
 * (DESIGN.md section 7). PostgreSQL text cannot hold NUL at all, and SQLite could, so one rule
 * for both keeps a reply the same wherever it is stored. Lone surrogates need no rule here:
 * both stores encode text as UTF-8, which already turns them into U+FFFD.
 */
import type { ProviderMessageWriter, UserInputQuestion } from "../providers/types.ts";

const NUL = /\u0000/g;

/** `text` with every NUL replaced by U+FFFD (the same string when it holds none). */
export function storableProviderText(text: string): string {
  return text.includes("\u0000") ? text.replace(NUL, "\uFFFD") : text;
}

/** A message writer whose chunks are made storable before the turn's writer sees them. */
export function storableWriter(writer: ProviderMessageWriter): ProviderMessageWriter {
  return {
    // Not a string: the writer's own check throws its TypeError.
    append: (chunk) =>
      writer.append(typeof chunk === "string" ? storableProviderText(chunk) : chunk),
    complete: () => writer.complete(),
  };
}

/** Questions with storable prompts and options (ids stay as the adapter chose them). */
export function storableQuestions(questions: UserInputQuestion[]): UserInputQuestion[] {
  return questions.map((q) => ({
    ...q,
    prompt: storableProviderText(q.prompt),
    ...(q.options === undefined ? {} : { options: q.options.map(storableProviderText) }),
  }));
}
