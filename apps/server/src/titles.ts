/**
 * Thread titles and git-style branch names, derived from the first prompt. Both read the
 * readable plain text of the prompt (assistantCitationsToPlainText: a citation becomes its quote
 * and comment), never the encoded link, so neither ever shows `t3-citation` bytes or
 * percent-escapes from a link.
 */
import { assistantCitationsToPlainText } from "@app/citations";

/** Longest title, in code points, the ellipsis included. */
export const THREAD_TITLE_MAX_CHARS = 60;
/** Title of a thread whose first prompt has no readable text. */
export const DEFAULT_THREAD_TITLE = "New thread";
/** Longest branch name, in characters (all ASCII). */
export const BRANCH_NAME_MAX_LENGTH = 40;
/** Branch name used when the prompt has no letters or digits that survive slugging. */
export const DEFAULT_BRANCH_NAME = "thread";

const ELLIPSIS = "…";
const CITATION_SCHEME = "t3-citation";
/**
 * Malformed citation links stay ordinary text in assistantCitationsToPlainText; their bytes
 * must still not reach a title, so the link shape and any bare scheme URI are dropped.
 */
const LEFTOVER_LINK = /\[Assistant quote\]\(t3-citation:[^\s)]*\)|t3-citation:\S*/gi;

/**
 * The readable title of a thread from its first prompt: plain text with whitespace collapsed and
 * trimmed, at most {@link THREAD_TITLE_MAX_CHARS} code points, cut only between grapheme
 * clusters (so an emoji or a surrogate pair is never split) with "…" appended when cut.
 * Returns {@link DEFAULT_THREAD_TITLE} when nothing readable is left.
 */
export function deriveThreadTitle(prompt: string): string {
  return titleFromPlainText(readablePlainText(prompt));
}

/**
 * The title and the branch name of a first prompt together: the prompt's plain text is built
 * once (the costly part on a 120,000-character prompt with many citations).
 */
export function deriveThreadNames(prompt: string): { title: string; branchName: string } {
  const plain = readablePlainText(prompt);
  return { title: titleFromPlainText(plain), branchName: branchFromPlainText(plain) };
}

function titleFromPlainText(plain: string): string {
  const text = plain
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return DEFAULT_THREAD_TITLE;
  return truncateGraphemes(text, THREAD_TITLE_MAX_CHARS);
}

/**
 * A lowercase branch-name slug from the same plain text as {@link deriveThreadTitle}: letters
 * lose their diacritics (NFKD), every run of other characters becomes one "-", at most
 * {@link BRANCH_NAME_MAX_LENGTH} characters. The result only holds `[a-z0-9-]`, never starts or
 * ends with "-", and so always passes `git check-ref-format --branch`. Falls back to
 * {@link DEFAULT_BRANCH_NAME}.
 */
export function deriveBranchName(prompt: string): string {
  return branchFromPlainText(readablePlainText(prompt));
}

function branchFromPlainText(plain: string): string {
  let slug = plain
    .normalize("NFKD")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[ßæœøđłþ]/g, (letter) => LETTER_SPELLINGS[letter] ?? "-")
    .replace(/[^a-z0-9]+/g, "-");
  // Removing one occurrence (and collapsing the dashes left behind) can join two halves into a
  // new one, hence the loop.
  slug = slug.replace(/-{2,}/g, "-");
  while (slug.includes(CITATION_SCHEME)) {
    slug = slug.replaceAll(CITATION_SCHEME, "-").replace(/-{2,}/g, "-");
  }
  slug = trimDashes(slug);
  if (slug.length > BRANCH_NAME_MAX_LENGTH) {
    let cut = slug.slice(0, BRANCH_NAME_MAX_LENGTH);
    const lastDash = cut.lastIndexOf("-");
    // Prefer ending at a word boundary unless that would throw away more than half.
    if (slug[BRANCH_NAME_MAX_LENGTH] !== "-" && lastDash >= BRANCH_NAME_MAX_LENGTH / 2) {
      cut = cut.slice(0, lastDash);
    }
    slug = trimDashes(cut);
  }
  return slug === "" ? DEFAULT_BRANCH_NAME : slug;
}

const LETTER_SPELLINGS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ł: "l",
  þ: "th",
};

function readablePlainText(prompt: string): string {
  return assistantCitationsToPlainText(prompt).replace(LEFTOVER_LINK, " ");
}

function trimDashes(text: string): string {
  return text.replace(/^-+|-+$/g, "");
}

const graphemeSegmenter =
  typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter("en", { granularity: "grapheme" })
    : null;

/**
 * Grapheme clusters of `text`, lazily. Segmenting a whole 120,000-character prompt with ICU is
 * slow (seconds), and a title only ever needs its first few dozen clusters.
 */
function* graphemes(text: string): Generator<string> {
  if (graphemeSegmenter === null) {
    yield* text;
    return;
  }
  for (const segment of graphemeSegmenter.segment(text)) yield segment.segment;
}

function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Cuts `text` to at most `max` code points including the ellipsis, between grapheme clusters. */
function truncateGraphemes(text: string, max: number): string {
  if (codePointLength(text) <= max) return text;
  const budget = max - 1;
  // Only a bounded prefix can contribute: `budget` code points take at most 2 * budget units.
  // A cluster cut at this bound is already over the budget, so the result is unchanged.
  text = text.slice(0, 16 * max);
  let kept = "";
  let used = 0;
  for (const cluster of graphemes(text)) {
    const size = codePointLength(cluster);
    if (used + size > budget) {
      // A single cluster longer than the whole budget (e.g. stacked combining marks) is cut by
      // code points: still never a split surrogate pair.
      if (kept === "") kept = [...cluster].slice(0, budget).join("");
      break;
    }
    kept += cluster;
    used += size;
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}
