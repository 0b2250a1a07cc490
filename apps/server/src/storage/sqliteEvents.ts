/** The SQLite queries on the event log and on user-input requests (part of `repository.ts`). */
import type { ServerEvent, UserInputQuestion, UserInputRequest } from "@app/protocol";
import type { StoredEvent, SyncQueries, UserInputRecord } from "./chatStore.ts";
import type { SqliteDatabase } from "./db.ts";
import { toUserInput, type UserInputRow } from "./rows.ts";

export type SqliteEventQueries = Pick<
  SyncQueries,
  | "appendEvent"
  | "eventsAfter"
  | "deleteDeltaEvents"
  | "insertUserInputRequest"
  | "getUserInputRequest"
  | "pendingUserInput"
  | "pendingUserInputIdsOfTurn"
  | "resolveUserInputRequest"
>;

export function sqliteEventQueries(db: SqliteDatabase): SqliteEventQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    bumpEventId: s(
      "UPDATE threads SET last_event_id = last_event_id + 1 WHERE id = ? RETURNING last_event_id",
    ),
    insertEvent: s(
      "INSERT INTO events (thread_id, id, type, message_id, data) VALUES (?, ?, ?, ?, ?)",
    ),
    eventsAfter: s(
      "SELECT id, data FROM events WHERE thread_id = ? AND id > ? ORDER BY id LIMIT ?",
    ),
    deleteDeltas: s("DELETE FROM events WHERE message_id = ?"),
    insertUserInput: s(
      `INSERT INTO user_input_requests (id, thread_id, turn_id, questions, status, created_at)
       VALUES (?, ?, ?, ?, 'pending', ?)`,
    ),
    getUserInput: s("SELECT * FROM user_input_requests WHERE id = ?"),
    pendingUserInput: s(
      `SELECT * FROM user_input_requests WHERE thread_id = ? AND status = 'pending'
       ORDER BY created_at LIMIT 1`,
    ),
    resolveUserInput: s(
      `UPDATE user_input_requests SET status = ?, answers = ?, resolved_at = ?
       WHERE id = ? AND status = 'pending'`,
    ),
    pendingUserInputOfTurn: s(
      "SELECT id FROM user_input_requests WHERE turn_id = ? AND status = 'pending'",
    ),
  };

  const getUserInputRequest = (id: string): UserInputRecord | null => {
    const row = stmt.getUserInput.get(id) as UserInputRow | undefined;
    return row ? toUserInput(row) : null;
  };

  return {
    /** Appends an event to the thread's log and returns its id (next in the thread's sequence). */
    appendEvent(threadId: string, event: ServerEvent, data = JSON.stringify(event)): number {
      const row = stmt.bumpEventId.get(threadId) as { last_event_id: number } | undefined;
      if (!row) throw new Error(`Thread ${threadId} does not exist.`);
      const messageId = event.type === "message.delta" ? event.messageId : null;
      stmt.insertEvent.run(threadId, row.last_event_id, event.type, messageId, data);
      return row.last_event_id;
    },

    /** Stored events with id > `afterId`, in order, at most `limit`. */
    eventsAfter(threadId: string, afterId: number, limit: number): StoredEvent[] {
      return (stmt.eventsAfter.all(threadId, afterId, limit) as { id: number; data: string }[]).map(
        (row) => ({ id: row.id, event: JSON.parse(row.data) as ServerEvent, data: row.data }),
      );
    },

    /** Drops the delta rows of a completed message: its message.completed event carries the text. */
    deleteDeltaEvents(messageId: string): void {
      stmt.deleteDeltas.run(messageId);
    },

    insertUserInputRequest(input: {
      id: string;
      threadId: string;
      turnId: string;
      questions: UserInputQuestion[];
      now: string;
    }): UserInputRequest {
      stmt.insertUserInput.run(
        input.id,
        input.threadId,
        input.turnId,
        JSON.stringify(input.questions),
        input.now,
      );
      return getUserInputRequest(input.id)!.request;
    },

    getUserInputRequest,

    pendingUserInput(threadId: string): UserInputRequest | null {
      const row = stmt.pendingUserInput.get(threadId) as UserInputRow | undefined;
      return row ? toUserInput(row).request : null;
    },

    pendingUserInputIdsOfTurn(turnId: string): string[] {
      return (stmt.pendingUserInputOfTurn.all(turnId) as { id: string }[]).map((r) => r.id);
    },

    /** Marks a pending request answered or cancelled; false when it was not pending. */
    resolveUserInputRequest(input: {
      id: string;
      status: "answered" | "cancelled";
      answers: Record<string, string> | null;
      now: string;
    }): boolean {
      const result = stmt.resolveUserInput.run(
        input.status,
        input.answers === null ? null : JSON.stringify(input.answers),
        input.now,
        input.id,
      );
      return result.changes === 1;
    },
  };
}
