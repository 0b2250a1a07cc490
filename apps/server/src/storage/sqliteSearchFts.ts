/**
 * The rows of SQLite's trigram index (`message_search_fts`) since issue 33: a message's text is
 * indexed as one or more pieces (`searchPieces.ts`), piece `i` of the `message_search` row `id`
 * at FTS rowid `id * FTS_ROWS_PER_MESSAGE + i`. Rowids keep thread order (every piece of a
 * message sorts after the pieces of the messages before it), a message's pieces are one rowid
 * range (`ftsRange`), and a hit's message row is `rowid >> FTS_PIECE_BITS`.
 */
import type Database from "better-sqlite3";
import { searchPiece, searchPieceCount } from "./searchPieces.ts";
import { foldedSearchText } from "./searchText.ts";

/** Bits of an FTS rowid that number the piece. */
export const FTS_PIECE_BITS = 20;
/** FTS rowids per `message_search` row (pieces of at most 2^20 × 64 Ki units). */
export const FTS_ROWS_PER_MESSAGE = 2 ** FTS_PIECE_BITS;

/** The FTS rowids of a `message_search` row's pieces: `[first, end)`. */
export function ftsRange(rowId: number): [first: number, end: number] {
  return [rowId * FTS_ROWS_PER_MESSAGE, (rowId + 1) * FTS_ROWS_PER_MESSAGE];
}

/** What the trigger on `message_search` deletes: every piece of the deleted row (migration 10). */
export const FTS_DELETE_TRIGGER = `
  CREATE TRIGGER message_search_deleted AFTER DELETE ON message_search BEGIN
    DELETE FROM message_search_fts
    WHERE rowid >= old.id * ${FTS_ROWS_PER_MESSAGE} AND rowid < (old.id + 1) * ${FTS_ROWS_PER_MESSAGE};
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
  const drop = db.prepare("DELETE FROM message_search_fts WHERE rowid >= ? AND rowid < ?");
  const insert = db.prepare("INSERT INTO message_search_fts (rowid, folded) VALUES (?, ?)");
  const insertPiece = (rowId: number, text: string, piece: number) => {
    const folded = foldedSearchText(searchPieceCount(text) === 1 ? text : searchPiece(text, piece));
    insert.run(ftsRange(rowId)[0] + piece, folded);
  };
  const writer: SqliteFtsWriter = {
    dropAll(rowId) {
      drop.run(...ftsRange(rowId));
    },
    writePiece(rowId, text, piece) {
      if (piece === 0) writer.dropAll(rowId);
      insertPiece(rowId, text, piece);
    },
    writeFrom(rowId, text, from = 0) {
      for (let piece = from; piece < searchPieceCount(text); piece++) {
        writer.writePiece(rowId, text, piece);
      }
    },
    writeNew(rowId, text) {
      for (let piece = 0; piece < searchPieceCount(text); piece++) insertPiece(rowId, text, piece);
    },
  };
  return writer;
}
