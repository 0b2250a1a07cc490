/**
 * The chunks of one flooded reply (shared by streamingServer.ts and its fake provider), by
 * `FLOOD` (issue 33's stall bench, `bench/stall.ts`):
 * - `50k` (default): 50,000 chunks of 12 characters (a 600,000-character reply);
 * - `tiny`: 200,000 chunks of one character (words and a paragraph break every 80 characters);
 * - `1m`: a 1,000,000-character reply in 1,000 chunks of 1,000 characters (paragraphs of
 *   about 500), so replies of a million characters finish, and are indexed, back to back.
 */
const FLOOD = process.env.FLOOD ?? "50k";

const tinyChunk = (i: number) =>
  i % 80 === 79 ? "\n" : i % 5 === 4 ? " " : String.fromCharCode(97 + (i % 26));

/** 496 characters: words, then a paragraph break. */
const FILLER = `${"lorem ipsum dolor sit amet ".repeat(19).slice(0, 494)}\n\n`;
/** 500 characters: the chunk's number, then the filler. */
const half = (i: number) => `${String(i).padStart(4, "0")}${FILLER}`;

export const CHUNKS = FLOOD === "tiny" ? 200_000 : FLOOD === "1m" ? 1_000 : 50_000;
export const chunk: (i: number) => string =
  FLOOD === "tiny"
    ? tinyChunk
    : FLOOD === "1m"
      ? (i) => half(i) + half(i)
      : (i) => `chunk ${String(i).padStart(5, "0")} `;
/** A query that finds text in every reply of this flood (the stall bench's searchers). */
export const SEARCH_QUERY =
  FLOOD === "tiny" ? "klmn" : FLOOD === "1m" ? "0999lorem" : "chunk 00042";
