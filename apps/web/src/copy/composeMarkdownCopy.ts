/**
 * Pure part of Markdown selection copy: given, per message, the pieces a selection covers
 * (whole blocks as source ranges, partially selected text as plain text), build the text that
 * goes on the clipboard. DOM reading lives in `selectionMarkdown.ts`.
 */

/**
 * One selected piece of a rendered message, in document order.
 * - `source`: a block selected entirely, copied as `source.slice(start, end)`; `inline` marks an
 *   atomic inline element (a citation chip) that stands for its source even when only touched;
 * - `text`: the selected part of a partially selected block, copied as displayed. `start`/`end`
 *   is the source range of the innermost block containing it, used only to pick separators.
 */
export type CopyPiece =
  | { kind: "source"; start: number; end: number; inline?: boolean }
  | { kind: "text"; text: string; start: number; end: number };

/** The pieces of one message, with that message's Markdown source. */
export type MessageCopySelection = { source: string; pieces: readonly CopyPiece[] };

const BLOCK_SEPARATOR = "\n\n";

/** The separator the source itself has between two pieces, when it is plain whitespace. */
function gapBetween(source: string, previous: CopyPiece, next: CopyPiece): string {
  if (isInline(previous) || isInline(next)) {
    // An inline chip and the text of the block around it are one run.
    if (contains(previous, next) || contains(next, previous)) return "";
    if (next.start >= previous.end && (isInline(previous) || isInline(next))) {
      const gap = source.slice(previous.end, next.start);
      if (gap.trim() === "") return gap;
    }
  }
  if (previous.kind === "text" && next.kind === "text") {
    // Two runs of text inside one block (around an inline element): they are contiguous.
    if (next.start < previous.end) return "";
  }
  if (next.start < previous.end) return "\n";
  const gap = source.slice(previous.end, next.start);
  if (gap !== "" && gap.trim() === "") return gap;
  return BLOCK_SEPARATOR;
}

function isInline(piece: CopyPiece): boolean {
  return piece.kind === "source" && piece.inline === true;
}

function contains(outer: CopyPiece, inner: CopyPiece): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/** The copied Markdown of one message's pieces. */
export function composeMessageCopy(selection: MessageCopySelection): string {
  const { source, pieces } = selection;
  let result = "";
  let previous: CopyPiece | null = null;
  for (const piece of pieces) {
    if (previous !== null) result += gapBetween(source, previous, piece);
    result += piece.kind === "source" ? source.slice(piece.start, piece.end) : piece.text;
    previous = piece;
  }
  return result;
}

/**
 * Clipboard text for a selection across one or more messages, or `null` when no whole block is
 * selected (a selection inside a single text run keeps the browser's plain text).
 */
export function composeSelectionMarkdown(
  selections: readonly MessageCopySelection[],
): string | null {
  const withPieces = selections.filter((s) => s.pieces.length > 0);
  if (!withPieces.some((s) => s.pieces.some((p) => p.kind === "source"))) return null;
  return withPieces.map(composeMessageCopy).join(BLOCK_SEPARATOR);
}
