/**
 * The rows of SQLite's trigram index (`message_search_fts`) since issue 33: a message's text is
 * indexed as one or more pieces (`searchPieces.ts`), piece `i` of the `message_search` row `id`
 * at FTS rowid `id * FTS_ROWS_PER_MESSAGE + i`. Rowids keep thread order (every piece of a
 * message sorts after the pieces of the messages before it), and a hit's message row is
 * `rowid >> FTS_PIECE_BITS`. `message_search.pieces` counts the FTS rows a message has (written
 * ahead or whole), so they are deleted by rowid: FTS5 cannot seek a rowid range of a contentless
 * table (a range scans every row), but finds one rowid at once.
 */
import type Database from "better-sqlite3";
import { searchPiece, searchPieceCount } from "./searchPieces.ts";
import { foldedSearchText } from "./searchText.ts";

/** Bits of an FTS rowid that number the piece. */
export const FTS_PIECE_BITS = 20;
/** FTS rowids per `message_search` row (pieces of at most 2^20 × 64 Ki units). */
export const FTS_ROWS_PER_MESSAGE = 2 ** FTS_PIECE_BITS;

/** The FTS rowids a `message_search` row's pieces may take: `[first, end)`. */
export function ftsRange(rowId: number): [first: number, end: number] {
  return [rowId * FTS_ROWS_PER_MESSAGE, (rowId + 1) * FTS_ROWS_PER_MESSAGE];
}

/**
 * The trigger that deletes a deleted row's pieces (migration 10), one rowid each: SQLite has no
 * loop in a trigger, so `json_each` walks an array of `pieces` zeros (its keys, 0 to
 * `pieces - 1`, built from `zeroblob`).
 */
export const FTS_DELETE_TRIGGER = `
  CREATE TRIGGER message_search_deleted AFTER DELETE ON message_search WHEN old.pieces > 0 BEGIN
    DELETE FROM message_search_fts WHERE rowid IN (
      SELECT old.id * ${FTS_ROWS_PER_MESSAGE} + key FROM json_each(
        '[' || substr(replace(hex(zeroblob(old.pieces)), '00', '0,'), 1, old.pieces * 2 - 1) || ']'
      )
    );
  END;
`;

export interface SqliteFtsWriter {
  /** Removes every piece of the row. */
  dropAll(rowId: number): void;
  /** Writes piece `piece` of `text`'s index; piece 0 first removes whatever the row had. */
  writePiece(rowId: number, text: string, piece: number): void;
  /** Writes the pieces of `text` from `from` on (0: all of them, after removing the old ones). */
  writeFrom(rowId: number, text: string, from?: number): void;
  /** Writes every piece of `text` for a row that has none (new, or a new table). */
  writeNew(rowId: number, text: string): void;
}

export function sqliteFtsWriter(db: Database.Database): SqliteFtsWriter {
  const dropOne = db.prepare("DELETE FROM message_search_fts WHERE rowid = ?");
  const insert = db.prepare("INSERT INTO message_search_fts (rowid, folded) VALUES (?, ?)");
  const piecesOf = db.prepare("SELECT pieces FROM message_search WHERE id = ?").pluck();
  const setPieces = db.prepare("UPDATE message_search SET pieces = ? WHERE id = ?");
  const insertPieces = (rowId: number, text: string, from: number) => {
    const count = searchPieceCount(text);
    for (let piece = from; piece < count; piece++) {
      const folded = foldedSearchText(count === 1 ? text : searchPiece(text, piece));
      insert.run(ftsRange(rowId)[0] + piece, folded);
    }
    setPieces.run(Math.max(from, count), rowId);
  };
  const writer: SqliteFtsWriter = {
    dropAll(rowId) {
      const pieces = (piecesOf.get(rowId) as number | undefined) ?? 0;
      if (pieces === 0) return;
      for (let piece = 0; piece < pieces; piece++) dropOne.run(ftsRange(rowId)[0] + piece);
      setPieces.run(0, rowId);
    },
    writePiece(rowId, text, piece) {
      if (piece === 0) writer.dropAll(rowId);
      insert.run(ftsRange(rowId)[0] + piece, foldedSearchText(searchPiece(text, piece)));
      setPieces.run(piece + 1, rowId);
    },
    writeFrom(rowId, text, from = 0) {
      if (from === 0) writer.dropAll(rowId);
      insertPieces(rowId, text, from);
    },
    writeNew(rowId, text) {
      insertPieces(rowId, text, 0);
    },
  };
  return writer;
}
