/**
 * Pure cursor mapping between prompt-string offsets and positions in a flat list of editor
 * pieces. The Lexical layer (`promptEditorState.ts`) describes a paragraph's content as pieces:
 * text nodes (caret may sit anywhere inside), atoms (chips: the caret may only sit before or
 * after, but they count their full source length) and breaks (line breaks and paragraph
 * separators, one character each).
 */

/** One unit of editor content, laid out left to right in the prompt string. */
export type PromptPiece = { kind: "text" | "atom" | "break"; length: number };

/**
 * A caret position: inside text piece `index` at `offset` (0..length), or at the boundary just
 * before piece `index` (`index === pieces.length` is the very end).
 */
export type PiecePosition =
  | { type: "text"; index: number; offset: number }
  | { type: "boundary"; index: number };

/** Start offset of every piece plus the total length as the last entry. */
export function pieceStarts(pieces: readonly PromptPiece[]): number[] {
  const starts: number[] = [];
  let total = 0;
  for (const piece of pieces) {
    starts.push(total);
    total += piece.length;
  }
  starts.push(total);
  return starts;
}

/**
 * Maps a prompt offset to a caret position. Offsets are clamped to the prompt. An offset inside
 * an atom snaps to just after it (a chip is never split). At a boundary next to a text piece the
 * text piece is preferred, so typing continues in existing text.
 */
export function positionForPromptOffset(
  pieces: readonly PromptPiece[],
  offset: number,
): PiecePosition {
  const starts = pieceStarts(pieces);
  const total = starts[starts.length - 1] ?? 0;
  let target = Number.isFinite(offset) ? Math.min(Math.max(Math.trunc(offset), 0), total) : total;
  for (let index = 0; index < pieces.length; index++) {
    const piece = pieces[index]!;
    const start = starts[index]!;
    const end = start + piece.length;
    if (target < start) break;
    if (piece.kind === "text" && target <= end) {
      return { type: "text", index, offset: target - start };
    }
    if (piece.kind === "atom" && target > start && target < end) {
      target = end;
      continue;
    }
    if (target === start) {
      // Prefer a text piece that ends here (handled above) over the boundary.
      return { type: "boundary", index };
    }
  }
  return { type: "boundary", index: pieces.length };
}

/** Maps a caret position back to its prompt offset (the inverse of {@link positionForPromptOffset}). */
export function promptOffsetForPosition(
  pieces: readonly PromptPiece[],
  position: PiecePosition,
): number {
  const starts = pieceStarts(pieces);
  const index = Math.min(Math.max(position.index, 0), pieces.length);
  const start = starts[index] ?? 0;
  if (position.type === "text") {
    const length = pieces[index]?.length ?? 0;
    return start + Math.min(Math.max(position.offset, 0), length);
  }
  return start;
}
