/**
 * The SQLite queries on messages and their pages (part of `repository.ts`). A streaming
 * message's text is its stored text plus its `message.delta` event rows (`withDeltas`).
 */
import type { Message } from "@app/protocol";
import type { MessageWindow, SyncQueries } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { MESSAGE_COLUMNS, type MessageRow, toMessage } from "./rows.ts";
import { sqliteSearchWriter } from "./sqliteSearch.ts";
import type { SqliteVersionQueries } from "./sqliteVersions.ts";
import { aroundWindow, pageOf, withDeltas } from "./storeLogic.ts";

export type SqliteMessageQueries = Pick<
  SyncQueries,
  | "insertAssistantMessage"
  | "getMessage"
  | "finishMessage"
  | "streamingMessagesOfTurn"
  | "messagesBefore"
  | "messagesAfter"
  | "messagesAround"
  | "messagesBetween"
> & {
  /**
   * Inserts one message row at `seq` (the caller took the seq), placed in the version tree;
   * `versionOf`: it is a new version of that message, and is shown. Returns the message as
   * `getMessage` would read it.
   */
  insertMessageRow(
    row: Omit<MessageRow, "created_at"> & { now: string; versionOf?: string | undefined },
  ): Message;
};

export function sqliteMessageQueries(
  db: SqliteDatabase,
  nextSeq: (threadId: string, now: string) => number,
  versions: Pick<SqliteVersionQueries, "placementOf" | "addVersion">,
): SqliteMessageQueries {
  const s = (sql: string) => db.prepare(sql);
  const search = sqliteSearchWriter(db);
  const stmt = {
    insertMessage: s(
      `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
         parent_id, on_path, chosen)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    getMessage: s(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ?`),
    // Returns the row it wrote, but not its text: the caller knows it (a long reply is not read
    // back), and one statement, not an update and a read (issue 33).
    finishMessage: s(
      `UPDATE messages SET text = ?, status = ? WHERE id = ?
       RETURNING ${MESSAGE_COLUMNS.replace("text", "'' AS text")}`,
    ),
    deltaRows: s("SELECT data FROM events WHERE message_id = ? ORDER BY thread_id, id"),
    streamingMessagesOfTurn: s(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE turn_id = ? AND status = 'streaming' ORDER BY seq`,
    ),
    pageBefore: s(
      `SELECT ${MESSAGE_COLUMNS} FROM messages INDEXED BY messages_on_path
       WHERE thread_id = ? AND on_path = 1 AND seq < ? ORDER BY seq DESC LIMIT ?`,
    ),
    pageAfter: s(
      `SELECT ${MESSAGE_COLUMNS} FROM messages INDEXED BY messages_on_path
       WHERE thread_id = ? AND on_path = 1 AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    pageBetween: s(
      `SELECT ${MESSAGE_COLUMNS} FROM messages INDEXED BY messages_on_path
       WHERE thread_id = ? AND on_path = 1 AND seq > ? AND seq <= ?
       ORDER BY seq LIMIT ?`,
    ),
  };

  /** A streaming message's text is its stored text plus its stored delta rows, in order. */
  const toStoredMessage = (row: MessageRow): Message => {
    const message = toMessage(row);
    if (row.status !== "streaming") return message;
    const deltas = stmt.deltaRows.all(row.id) as { data: string }[];
    return withDeltas(
      message,
      deltas.map((delta) => delta.data),
    );
  };

  const getMessage = (id: string): Message | null => {
    const row = stmt.getMessage.get(id) as MessageRow | undefined;
    return row ? toStoredMessage(row) : null;
  };

  const hasMessageBefore = (threadId: string, seq: number): boolean =>
    (stmt.pageBefore.all(threadId, seq, 1) as MessageRow[]).length > 0;

  const insertMessageRow = (
    row: Omit<MessageRow, "created_at"> & { now: string; versionOf?: string | undefined },
  ): Message => {
    const placed = versions.placementOf({
      threadId: row.thread_id,
      turnId: row.turn_id,
      role: row.role,
    });
    const versionOf = row.versionOf ?? placed.versionOf;
    const parentId = row.versionOf
      ? ((
          db.prepare("SELECT parent_id FROM messages WHERE id = ?").get(row.versionOf) as
            | { parent_id: string | null }
            | undefined
        )?.parent_id ?? null)
      : placed.parentId;
    stmt.insertMessage.run(
      row.id,
      row.thread_id,
      row.turn_id,
      row.seq,
      row.role,
      row.kind,
      row.text,
      row.status,
      row.now,
      parentId,
      versionOf ? 0 : placed.onPath,
      versionOf ? 0 : 1,
    );
    if (versionOf) versions.addVersion(versionOf, row.id);
    // Find-in-thread: indexed now (searchable unless it streams), in the same transaction.
    search.added({
      id: row.id,
      threadId: row.thread_id,
      role: row.role,
      text: row.status === "streaming" ? null : row.text,
    });
    // A message of one version is exactly the row just written (a new id has no delta rows):
    // no read back on the turn path (issue 33). A version's number and count are read.
    return versionOf ? getMessage(row.id)! : toMessage({ ...row, created_at: row.now });
  };

  return {
    insertMessageRow,

    insertAssistantMessage(input: {
      id: string;
      threadId: string;
      turnId: string;
      kind: "progress" | "answer" | "error";
      text: string;
      status: "streaming" | "complete" | "error";
      now: string;
    }): Message {
      const seq = nextSeq(input.threadId, input.now);
      return insertMessageRow({
        id: input.id,
        thread_id: input.threadId,
        turn_id: input.turnId,
        seq,
        role: "assistant",
        kind: input.kind,
        text: input.text,
        status: input.status,
        now: input.now,
      });
    },

    getMessage,

    /** Writes a message's whole text and final status (once, when it stops streaming). */
    finishMessage(id: string, text: string, status: "complete" | "error"): Message {
      const row = stmt.finishMessage.get(text, status, id) as MessageRow | undefined;
      search.finished(id, text);
      return row ? toMessage({ ...row, text }) : getMessage(id)!;
    },

    streamingMessagesOfTurn(turnId: string): Message[] {
      return (stmt.streamingMessagesOfTurn.all(turnId) as MessageRow[]).map(toStoredMessage);
    },

    /** Up to `limit` messages with seq < `beforeSeq` (null: the newest), oldest first. */
    messagesBefore(threadId: string, beforeSeq: number | null, limit: number): MessageWindow {
      const rows = stmt.pageBefore.all(
        threadId,
        beforeSeq ?? Number.MAX_SAFE_INTEGER,
        limit + 1,
      ) as MessageRow[];
      const { page, more } = pageOf(rows, limit);
      return {
        messages: page.reverse().map(toStoredMessage),
        hasOlder: more,
        hasNewer: false,
      };
    },

    /** Up to `limit` messages with seq > `afterSeq`, oldest first. */
    messagesAfter(threadId: string, afterSeq: number, limit: number): MessageWindow {
      const rows = stmt.pageAfter.all(threadId, afterSeq, limit + 1) as MessageRow[];
      const { page, more } = pageOf(rows, limit);
      const first = page[0];
      const hasOlder = first ? hasMessageBefore(threadId, first.seq) : afterSeq > 0;
      return { messages: page.map(toStoredMessage), hasOlder, hasNewer: more };
    },

    /** A window of `limit` messages containing `anchor` ({@link aroundWindow}). */
    messagesAround(anchor: Message, limit: number): MessageWindow {
      // Enough on each side to refill from the other when one side is short.
      const older = (
        stmt.pageBefore.all(anchor.threadId, anchor.seq, limit) as MessageRow[]
      ).reverse();
      const newer = stmt.pageAfter.all(anchor.threadId, anchor.seq, limit) as MessageRow[];
      const window = aroundWindow(older, newer, limit);
      return {
        messages: [
          ...window.older.map(toStoredMessage),
          anchor,
          ...window.newer.map(toStoredMessage),
        ],
        hasOlder: window.hasOlder,
        hasNewer: window.hasNewer,
      };
    },

    /** Up to `limit` messages with `afterSeq` < seq <= `untilSeq`, oldest first (export pages). */
    messagesBetween(
      threadId: string,
      afterSeq: number,
      untilSeq: number,
      limit: number,
    ): Message[] {
      return (stmt.pageBetween.all(threadId, afterSeq, untilSeq, limit) as MessageRow[]).map(
        toStoredMessage,
      );
    },
  };
}
