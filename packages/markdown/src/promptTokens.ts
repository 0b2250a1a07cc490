/**
 * The one tokenizer for composer prompt strings. Every chip the composer shows (file mentions,
 * skills, assistant citations) is derived from the prompt string by this module alone, so
 * drafts, stashes, pastes and restores rebuild exactly the same chips.
 *
 * Invariant: `tokens.map((t) => t.text).join("") === input` for every input, and the tokenizer
 * never throws.
 */
import { type AssistantCitation, collectAssistantCitations } from "@app/citations";

/** Plain text between tokens. */
export type TextToken = { kind: "text"; text: string; start: number; end: number };
/** `@path/to/file`: `path` is the text after the `@`. */
export type MentionToken = {
  kind: "mention";
  text: string;
  start: number;
  end: number;
  path: string;
};
/** `$name`: `name` is the text after the `$`. */
export type SkillToken = { kind: "skill"; text: string; start: number; end: number; name: string };
/** A valid citation link (as `serializeAssistantCitation` writes it). */
export type CitationToken = {
  kind: "citation";
  text: string;
  start: number;
  end: number;
  citation: AssistantCitation;
};
/** One piece of a prompt string; `text === input.slice(start, end)`. */
export type PromptToken = TextToken | MentionToken | SkillToken | CitationToken;
/** A token that becomes an atomic chip in the editor. */
export type ChipToken = MentionToken | SkillToken | CitationToken;

/** Options for {@link tokenizePrompt}. */
export type TokenizeOptions = {
  /**
   * The character just before `text` in the surrounding prompt ("" when `text` starts the
   * prompt or a line). Lets the editor tokenize one run of nodes with the same result as
   * tokenizing the whole prompt.
   */
  prevChar?: string;
};

const WHITESPACE = /\s/;
const SKILL_NAME = /^[A-Za-z][\w-]*/;
/**
 * Punctuation that ends a sentence rather than a path: `see @src/a.ts, then` mentions
 * `src/a.ts`. Stripping it from the end of a mention keeps "chip followed by `,`" and the
 * string `@src/a.ts,` tokenizing the same way.
 */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"`]+$/;

/** True when a token trigger (`@` or `$`) may start after `prev`. */
function isTriggerBoundary(prev: string): boolean {
  return prev === "" || WHITESPACE.test(prev);
}

/**
 * Finds mentions and skills in `segment` (which contains no citation link) and appends all
 * tokens, text included, to `out`. `offset` is the segment's start in the full input.
 */
function tokenizeSegment(
  segment: string,
  offset: number,
  prevChar: string,
  out: PromptToken[],
): void {
  let textStart = 0;
  let index = 0;
  const pushText = (end: number): void => {
    if (end > textStart) {
      out.push({
        kind: "text",
        text: segment.slice(textStart, end),
        start: offset + textStart,
        end: offset + end,
      });
    }
  };
  while (index < segment.length) {
    const char = segment[index];
    const prev = index === 0 ? prevChar : (segment[index - 1] ?? "");
    if ((char === "@" || char === "$") && isTriggerBoundary(prev)) {
      const rest = segment.slice(index + 1);
      let length = 0;
      if (char === "@") {
        const run = /^\S*/.exec(rest)?.[0] ?? "";
        length = run.replace(TRAILING_PUNCTUATION, "").length;
      } else {
        length = SKILL_NAME.exec(rest)?.[0].length ?? 0;
      }
      if (length > 0) {
        pushText(index);
        const end = index + 1 + length;
        const text = segment.slice(index, end);
        const start = offset + index;
        if (char === "@") {
          out.push({ kind: "mention", text, start, end: offset + end, path: text.slice(1) });
        } else {
          out.push({ kind: "skill", text, start, end: offset + end, name: text.slice(1) });
        }
        index = end;
        textStart = end;
        continue;
      }
    }
    index += 1;
  }
  pushText(segment.length);
}

/**
 * Splits a prompt string into text and chip tokens. Rules:
 * - citation links (as found by `collectAssistantCitations`) win over everything inside them;
 * - `@` at the start or after whitespace, followed by non-whitespace path characters (minus
 *   trailing sentence punctuation, and stopping at a citation link), is a file mention;
 * - `$` at the start or after whitespace, followed by `[A-Za-z][\w-]*`, is a skill.
 * Adjacent text is merged into one text token. Never throws; a non-string gives `[]`.
 */
export function tokenizePrompt(input: string, options: TokenizeOptions = {}): PromptToken[] {
  if (typeof input !== "string" || input.length === 0) return [];
  const out: PromptToken[] = [];
  let cursor = 0;
  let prevChar = options.prevChar ?? "";
  for (const link of collectAssistantCitations(input)) {
    tokenizeSegment(input.slice(cursor, link.start), cursor, prevChar, out);
    out.push({
      kind: "citation",
      text: link.source,
      start: link.start,
      end: link.end,
      citation: link.citation,
    });
    cursor = link.end;
    prevChar = input[link.end - 1] ?? "";
  }
  tokenizeSegment(input.slice(cursor), cursor, prevChar, out);
  return mergeText(out);
}

/** Merges neighbouring text tokens (a segment boundary can split text). */
function mergeText(tokens: PromptToken[]): PromptToken[] {
  const merged: PromptToken[] = [];
  for (const token of tokens) {
    const last = merged[merged.length - 1];
    if (last?.kind === "text" && token.kind === "text") {
      merged[merged.length - 1] = {
        kind: "text",
        text: last.text + token.text,
        start: last.start,
        end: token.end,
      };
    } else {
      merged.push(token);
    }
  }
  return merged;
}

/**
 * The `@` query being typed just before `caret` in `text`, for the file typeahead: returns the
 * `@` offset and the partial path, or null when the caret is not right after `@partial`.
 * `prevChar` is the character before `text` (see {@link TokenizeOptions}).
 */
export function findMentionQuery(
  text: string,
  caret: number,
  prevChar = "",
): { start: number; query: string } | null {
  if (caret < 1 || caret > text.length) return null;
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query)) return null;
  const prev = at === 0 ? prevChar : (before[at - 1] ?? "");
  if (!isTriggerBoundary(prev)) return null;
  return { start: at, query };
}
