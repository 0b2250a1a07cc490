/**
 * Provider output as it is stored and sent: NUL (U+0000) and each lone surrogate become one
 * U+FFFD on every store (DESIGN.md section 7). PostgreSQL text cannot hold NUL at all, and
 * SQLite could; and the two drivers turned a lone surrogate into different numbers of U+FFFD
 * (issue 29), so one rule, applied before either store sees the text, keeps a reply the same
 * wherever it is stored, and what readers are sent is what is stored. A chunk ending in a high
 * surrogate keeps it back until the next chunk, which may carry its low half.
 */
import type { ProviderMessageWriter, UserInputQuestion } from "../providers/types.ts";

const NUL = /\u0000/g;
// With the u flag a surrogate class matches only unpaired halves (a pair is one code point).
const LONE_SURROGATE = /\p{Surrogate}/gu;

/** `text` with every NUL and lone surrogate replaced by U+FFFD (the same string when clean). */
export function storableProviderText(text: string): string {
  const noNul = text.includes("\u0000") ? text.replace(NUL, "\uFFFD") : text;
  return noNul.replace(LONE_SURROGATE, "\uFFFD");
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** A message writer whose chunks are made storable before the turn's writer sees them. */
export function storableWriter(writer: ProviderMessageWriter): ProviderMessageWriter {
  /** A high surrogate that ended the last chunk, waiting for its low half. */
  let held = "";
  return {
    append: (chunk) => {
      // Not a string: the writer's own check throws its TypeError.
      if (typeof chunk !== "string") return writer.append(chunk);
      let text = held + chunk;
      held = "";
      if (text !== "" && isHighSurrogate(text.charCodeAt(text.length - 1))) {
        held = text.slice(-1);
        text = text.slice(0, -1);
      }
      if (text !== "") writer.append(storableProviderText(text));
    },
    complete: () => {
      if (held !== "") writer.append("\uFFFD");
      held = "";
      writer.complete();
    },
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
