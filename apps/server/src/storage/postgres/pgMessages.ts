/**
 * The PostgreSQL queries on messages and their pages (part of `pgQueries.ts`). A streaming
 * message's text is its stored text plus its `message.delta` event rows (`withDeltas`).
 */
import type { Message } from "@app/protocol";
import type { ChatQueries, MessageWindow } from "../chatStore.ts";
import { MESSAGE_COLUMNS, type MessageRow, toMessage } from "../rows.ts";
import { SEARCH_INLINE_MAX_CHARS } from "../searchText.ts";
import { aroundWindow, pageOf, withDeltas } from "../storeLogic.ts";
import type { PgContext } from "./pgRun.ts";
import { indexPgMessage } from "./pgSearch.ts";
import type { PgVersionQueries } from "./pgVersions.ts";

export type PgMessageQueries = Pick<
  ChatQueries,
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
   * Inserts one message row (values in column order, the caller took the seq), placed in the
   * version tree; `versionOf`: it is a new version of that message, and is shown.
   */
  insertMessageRow(values: unknown[], versionOf?: string): Promise<Message>;
};

function searchRowOf(row: MessageRow, markdown: string) {
  return { id: row.id, threadId: row.thread_id, seq: Number(row.seq), role: row.role, markdown };
}

export function pgMessageQueries(
  ctx: PgContext,
  nextSeq: (threadId: string, now: string) => Promise<number>,
  versions: Pick<PgVersionQueries, "placementOf" | "addVersion">,
): PgMessageQueries {
  /** A streaming message's text is its stored text plus its stored delta rows, in order. */
  const toStoredMessage = async (row: MessageRow): Promise<Message> => {
    const message = toMessage(row);
    if (row.status !== "streaming") return message;
    const deltas = await ctx.rows<{ data: string }>(
      "deltaRows",
      "SELECT data FROM events WHERE message_id = $1 ORDER BY thread_id, id",
      [row.id],
    );
    return withDeltas(
      message,
      deltas.map((delta) => delta.data),
    );
  };

  const toMessages = async (rows: MessageRow[]): Promise<Message[]> => {
    const messages: Message[] = [];
    for (const row of rows) messages.push(await toStoredMessage(row));
    return messages;
  };

  const pageBefore = (threadId: string, beforeSeq: number, limit: number) =>
    ctx.rows<MessageRow>(
      "pageBefore",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND on_path = 1 AND seq < $2
       ORDER BY seq DESC LIMIT $3`,
      [threadId, beforeSeq, limit],
    );

  const pageAfter = (threadId: string, afterSeq: number, limit: number) =>
    ctx.rows<MessageRow>(
      "pageAfter",
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND on_path = 1 AND seq > $2
       ORDER BY seq LIMIT $3`,
      [threadId, afterSeq, limit],
    );

  const insertMessageRow = async (values: unknown[], versionOf?: string): Promise<Message> => {
    const placed = await versions.placementOf({
      threadId: values[1] as string,
      turnId: values[2] as string,
      role: values[4] as "user" | "assistant",
    });
    const newVersionOf = versionOf ?? placed.versionOf;
    let parentId = placed.parentId;
    if (versionOf) {
      const [old] = await ctx.rows<{ parent_id: string | null }>(
        "versionParent",
        "SELECT parent_id FROM messages WHERE id = $1",
        [versionOf],
      );
      parentId = old?.parent_id ?? null;
    }
    const [inserted] = await ctx.rows<MessageRow>(
      "insertMessage",
      `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
         parent_id, on_path, chosen)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING ${MESSAGE_COLUMNS}`,
      [...values, parentId, newVersionOf ? 0 : placed.onPath, newVersionOf ? 0 : 1],
    );
    let row = inserted;
    if (newVersionOf) {
      await versions.addVersion(newVersionOf, row!.id);
      [row] = await ctx.rows<MessageRow>(
        "versionedMessage",
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1`,
        [row!.id],
      );
    }
    // Find-in-thread: a message created complete is indexed now, in the same transaction.
    if (row!.status !== "streaming") await indexPgMessage(ctx, searchRowOf(row!, row!.text));
    // A message just created has no delta rows yet: no read for them (issue 33).
    return toMessage(row!);
  };

  return {
    insertMessageRow,

    async insertAssistantMessage(input: {
      id: string;
      threadId: string;
      turnId: string;
      kind: "progress" | "answer" | "error";
      text: string;
      status: "streaming" | "complete" | "error";
      now: string;
    }): Promise<Message> {
      // Issue 33: a message of a turn that already has one (its prompt, or an earlier reply) is
      // placed after the turn's last message, in one statement with its seq. The caller holds
      // the turn's row (the lease guard, or the claim), so no other message of the turn can
      // land meanwhile. A turn without a message yet (a regeneration's first) takes the steps
      // one by one (`placementOf`).
      const [fast] = await ctx.rows<MessageRow>(
        "insertReply",
        `WITH last AS (
           SELECT id, on_path FROM messages WHERE turn_id = $3 ORDER BY seq DESC LIMIT 1
         ), bumped AS (
           UPDATE threads SET last_seq = last_seq + 1, message_count = message_count + 1,
             updated_at = $7
           WHERE id = $2 AND EXISTS (SELECT 1 FROM last) RETURNING last_seq
         )
         INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
           parent_id, on_path, chosen)
         SELECT $1, $2, $3, bumped.last_seq, 'assistant', $4, $5, $6, $7, last.id, last.on_path, 1
         FROM bumped, last RETURNING ${MESSAGE_COLUMNS}`,
        [input.id, input.threadId, input.turnId, input.kind, input.text, input.status, input.now],
      );
      if (fast) {
        if (fast.status !== "streaming") {
          await indexPgMessage(ctx, searchRowOf(fast, fast.text));
        }
        return toMessage(fast);
      }
      const seq = await nextSeq(input.threadId, input.now);
      return insertMessageRow([
        input.id,
        input.threadId,
        input.turnId,
        seq,
        "assistant",
        input.kind,
        input.text,
        input.status,
        input.now,
      ]);
    },

    async getMessage(id: string): Promise<Message | null> {
      const [row] = await ctx.rows<MessageRow>(
        "getMessage",
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1`,
        [id],
      );
      return row ? toStoredMessage(row) : null;
    },

    async finishMessage(id: string, text: string, status: "complete" | "error"): Promise<Message> {
      // The text is not read back (up to MAX_REPLY_CHARS): the caller's is the stored one.
      const columns = MESSAGE_COLUMNS.replace("text", "'' AS text");
      if (text.length > SEARCH_INLINE_MAX_CHARS) {
        // Queued for the search indexer in the same statement (issue 33: one round trip).
        const [row] = await ctx.rows<MessageRow>(
          "finishMessageQueued",
          `WITH finished AS (
             UPDATE messages SET text = $1, status = $2 WHERE id = $3 RETURNING ${columns}
           ), queued AS (
             INSERT INTO search_pending (message_id) SELECT id FROM finished
             ON CONFLICT DO NOTHING
           )
           SELECT * FROM finished`,
          [text, status, id],
        );
        return toMessage({ ...row!, text });
      }
      const [row] = await ctx.rows<MessageRow>(
        "finishMessage",
        `UPDATE messages SET text = $1, status = $2 WHERE id = $3 RETURNING ${columns}`,
        [text, status, id],
      );
      await indexPgMessage(ctx, searchRowOf(row!, text));
      return toMessage({ ...row!, text });
    },

    async streamingMessagesOfTurn(turnId: string): Promise<Message[]> {
      const rows = await ctx.rows<MessageRow>(
        "streamingMessagesOfTurn",
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE turn_id = $1 AND status = 'streaming' ORDER BY seq`,
        [turnId],
      );
      return toMessages(rows);
    },

    async messagesBefore(
      threadId: string,
      beforeSeq: number | null,
      limit: number,
    ): Promise<MessageWindow> {
      const rows = await pageBefore(threadId, beforeSeq ?? Number.MAX_SAFE_INTEGER, limit + 1);
      const { page, more } = pageOf(rows, limit);
      return { messages: await toMessages(page.reverse()), hasOlder: more, hasNewer: false };
    },

    async messagesAfter(threadId: string, afterSeq: number, limit: number): Promise<MessageWindow> {
      const rows = await pageAfter(threadId, afterSeq, limit + 1);
      const { page, more } = pageOf(rows, limit);
      const first = page[0];
      const hasOlder = first ? (await pageBefore(threadId, first.seq, 1)).length > 0 : afterSeq > 0;
      return { messages: await toMessages(page), hasOlder, hasNewer: more };
    },

    async messagesAround(anchor: Message, limit: number): Promise<MessageWindow> {
      const [olderDesc, newer] = await Promise.all([
        pageBefore(anchor.threadId, anchor.seq, limit),
        pageAfter(anchor.threadId, anchor.seq, limit),
      ]);
      const window = aroundWindow(olderDesc.reverse(), newer, limit);
      return {
        messages: [
          ...(await toMessages(window.older)),
          anchor,
          ...(await toMessages(window.newer)),
        ],
        hasOlder: window.hasOlder,
        hasNewer: window.hasNewer,
      };
    },

    async messagesBetween(
      threadId: string,
      afterSeq: number,
      untilSeq: number,
      limit: number,
    ): Promise<Message[]> {
      const rows = await ctx.rows<MessageRow>(
        "pageBetween",
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE thread_id = $1 AND on_path = 1
         AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
        [threadId, afterSeq, untilSeq, limit],
      );
      return toMessages(rows);
    },
  };
}
