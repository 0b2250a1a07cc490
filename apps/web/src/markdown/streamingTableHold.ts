/**
 * What of a still-streaming reply to render, so a table does not flash as raw text.
 *
 * A GFM table exists only once its delimiter row (`| --- | --- |`) has arrived with as many
 * cells as the header. Until then its header line is an ordinary paragraph ("| Step | Cost |"),
 * and a half-arrived delimiter row flips it between paragraph and table with every chunk: the
 * reply jumps. So while a reply streams, a table's first lines are held back until the
 * delimiter row is complete; everything else renders as it arrives. Body rows are not held: a
 * half-arrived row is already a row (GFM fills missing cells), and it only grows.
 *
 * Only tables whose rows start with a pipe are recognised (what models write); a held line
 * shows with the next line or when the reply completes, so nothing is ever lost.
 */

/** A line that starts like a table row: optional indent of up to 3 spaces, then a pipe. */
const PIPE_ROW = /^ {0,3}\|/;
/** A delimiter row so far: a pipe, then only pipes, colons, dashes and spaces. */
const DELIMITER_SO_FAR = /^ {0,3}\|[\s:|-]*$/;

/** The cells of a pipe row: split at unescaped pipes, without the leading and trailing one. */
function cells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/);
}

/** Whether `line` is a delimiter row complete for a header of `headerCells` cells. */
function isCompleteDelimiter(line: string, headerCells: number): boolean {
  if (!DELIMITER_SO_FAR.test(line)) return false;
  const delimiters = cells(line);
  return (
    delimiters.length === headerCells && delimiters.every((cell) => /^\s*:?-+:?\s*$/.test(cell))
  );
}

/** The line of `text` that ends at `end` (a line break or the text's end), with its start. */
function lineEndingAt(text: string, end: number): { start: number; line: string } {
  const start = text.lastIndexOf("\n", end - 1) + 1;
  return { start, line: text.slice(start, end) };
}

/**
 * The prefix of a streaming reply's `text` to render: all of it, or all but the start of a
 * table whose delimiter row has not fully arrived (the result then ends at a line start).
 */
export function streamingRenderableText(text: string): string {
  // The line still arriving (may be "") and the two complete lines above it, if any.
  const last = lineEndingAt(text, text.length);
  const previous = last.start === 0 ? null : lineEndingAt(text, last.start - 1);
  const above =
    previous === null || previous.start === 0 ? null : lineEndingAt(text, previous.start - 1);
  const startsTable = (line: string, lineAbove: string | null) =>
    PIPE_ROW.test(line) && (lineAbove === null || !PIPE_ROW.test(lineAbove));

  // A header line arriving.
  if (last.line !== "" && startsTable(last.line, previous?.line ?? null)) {
    return text.slice(0, last.start);
  }
  if (previous === null || !startsTable(previous.line, above?.line ?? null)) return text;
  // A header line with nothing after it yet, or a delimiter row arriving under it: held until
  // the delimiter row is complete.
  if (
    last.line === "" ||
    (DELIMITER_SO_FAR.test(last.line) &&
      !isCompleteDelimiter(last.line, cells(previous.line).length))
  ) {
    return text.slice(0, previous.start);
  }
  return text;
}
