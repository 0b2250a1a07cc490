/** The PostgreSQL queries on the event log and on user-input requests (part of `pgQueries.ts`). */
import type { ServerEvent, UserInputQuestion, UserInputRequest } from "@app/protocol";
import type { ChatQueries, StoredEvent, UserInputRecord } from "../chatStore.ts";
import { toUserInput, USER_INPUT_COLUMNS, type UserInputRow } from "../rows.ts";
import type { PgContext } from "./pgRun.ts";

export type PgEventQueries = Pick<
  ChatQueries,
  | "appendEvent"
  | "eventsAfter"
  | "deleteDeltaEvents"
  | "insertUserInputRequest"
  | "getUserInputRequest"
  | "pendingUserInput"
  | "pendingUserInputIdsOfTurn"
  | "resolveUserInputRequest"
>;

export function pgEventQueries(ctx: PgContext): PgEventQueries {
  return {
    async appendEvent(
      threadId: string,
      event: ServerEvent,
      data = JSON.stringify(event),
    ): Promise<number> {
      // The thread row's lock (held to commit) keeps each thread's ids in commit order.
      const [row] = await ctx.rows<{ id: number }>(
        "appendEvent",
        `WITH bumped AS (
           UPDATE threads SET last_event_id = last_event_id + 1 WHERE id = $1 RETURNING last_event_id
         )
         INSERT INTO events (thread_id, id, type, message_id, data)
         SELECT $1, last_event_id, $2, $3, $4 FROM bumped RETURNING id`,
        [threadId, event.type, event.type === "message.delta" ? event.messageId : null, data],
      );
      if (!row) throw new Error(`Thread ${threadId} does not exist.`);
      return row.id;
    },

    async eventsAfter(threadId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
      const rows = await ctx.rows<{ id: number; data: string }>(
        "eventsAfter",
        "SELECT id, data FROM events WHERE thread_id = $1 AND id > $2 ORDER BY id LIMIT $3",
        [threadId, afterId, limit],
      );
      return rows.map((row) => ({
        id: row.id,
        event: JSON.parse(row.data) as ServerEvent,
        data: row.data,
      }));
    },

    async deleteDeltaEvents(messageId: string): Promise<void> {
      await ctx.run("deleteDeltas", "DELETE FROM events WHERE message_id = $1", [messageId]);
    },

    async insertUserInputRequest(input: {
      id: string;
      threadId: string;
      turnId: string;
      questions: UserInputQuestion[];
      now: string;
    }): Promise<UserInputRequest> {
      const [row] = await ctx.rows<UserInputRow>(
        "insertUserInput",
        `INSERT INTO user_input_requests (id, thread_id, turn_id, questions, status, created_at)
         VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING ${USER_INPUT_COLUMNS}`,
        [input.id, input.threadId, input.turnId, JSON.stringify(input.questions), input.now],
      );
      return toUserInput(row!).request;
    },

    async getUserInputRequest(id: string): Promise<UserInputRecord | null> {
      const [row] = await ctx.rows<UserInputRow>(
        "getUserInput",
        `SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests WHERE id = $1`,
        [id],
      );
      return row ? toUserInput(row) : null;
    },

    async pendingUserInput(threadId: string): Promise<UserInputRequest | null> {
      const [row] = await ctx.rows<UserInputRow>(
        "pendingUserInput",
        `SELECT ${USER_INPUT_COLUMNS} FROM user_input_requests
         WHERE thread_id = $1 AND status = 'pending' ORDER BY created_at LIMIT 1`,
        [threadId],
      );
      return row ? toUserInput(row).request : null;
    },

    async pendingUserInputIdsOfTurn(turnId: string): Promise<string[]> {
      const rows = await ctx.rows<{ id: string }>(
        "pendingUserInputOfTurn",
        "SELECT id FROM user_input_requests WHERE turn_id = $1 AND status = 'pending'",
        [turnId],
      );
      return rows.map((row) => row.id);
    },

    async resolveUserInputRequest(input: {
      id: string;
      status: "answered" | "cancelled";
      answers: Record<string, string> | null;
      now: string;
    }): Promise<boolean> {
      const result = await ctx.run(
        "resolveUserInput",
        `UPDATE user_input_requests SET status = $1, answers = $2, resolved_at = $3
         WHERE id = $4 AND status = 'pending'`,
        [
          input.status,
          input.answers === null ? null : JSON.stringify(input.answers),
          input.now,
          input.id,
        ],
      );
      return result.rowCount === 1;
    },
  };
}
