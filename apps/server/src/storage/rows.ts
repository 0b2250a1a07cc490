/**
 * What both stores share about the chat tables: the row shapes, the column lists and the
 * row-to-protocol mappers. The SQL itself stays with each store (`repository.ts` for SQLite,
 * `postgres/pgQueries.ts` for PostgreSQL), since the dialects differ.
 */
import type { Message, MessageKind, Turn, TurnStatus, UserInputQuestion } from "@app/protocol";
import type { ThreadRecord, UserInputRecord } from "./chatStore.ts";

export type ThreadRow = {
  id: string;
  title: string;
  title_source: "default" | "custom" | "prompt";
  branch_name: string | null;
  created_at: string;
  updated_at: string;
  message_count: number;
  last_seq: number;
  last_event_id: number;
  /** Set while the thread is deleted and within its undo window (issue 31). */
  deleted_at: string | null;
};
export type TurnRow = {
  id: string;
  thread_id: string;
  prompt_seq: number;
  status: TurnStatus;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  completed_at: string | null;
};
export type MessageRow = {
  id: string;
  thread_id: string;
  turn_id: string;
  seq: number;
  role: "user" | "assistant";
  kind: MessageKind;
  text: string;
  status: "streaming" | "complete" | "error";
  created_at: string;
};
/** A user-input request row; `resolved_at` is stored but no mapper reads it. */
export type UserInputRow = {
  id: string;
  thread_id: string;
  turn_id: string;
  questions: string;
  status: "pending" | "answered" | "cancelled";
  answers: string | null;
  created_at: string;
};

export const THREAD_COLUMNS =
  "id, title, title_source, branch_name, created_at, updated_at, message_count, last_seq, last_event_id, deleted_at";
export const TURN_COLUMNS =
  "id, thread_id, prompt_seq, status, error_code, error_message, created_at, completed_at";
export const MESSAGE_COLUMNS = "id, thread_id, turn_id, seq, role, kind, text, status, created_at";
export const USER_INPUT_COLUMNS = "id, thread_id, turn_id, questions, status, answers, created_at";

export function toThreadRecord(row: ThreadRow, environmentId: string): ThreadRecord {
  return {
    thread: {
      id: row.id,
      environmentId,
      title: row.title,
      branchName: row.branch_name,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      messageCount: row.message_count,
    },
    titleSource: row.title_source,
    lastEventId: row.last_event_id,
    deletedAt: row.deleted_at,
  };
}

export function toTurn(row: TurnRow): Turn {
  return {
    id: row.id,
    threadId: row.thread_id,
    status: row.status,
    error:
      row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? "" },
    createdAt: row.created_at,
    completedAt: row.completed_at,
  };
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    threadId: row.thread_id,
    turnId: row.turn_id,
    role: row.role,
    kind: row.kind,
    text: row.text,
    status: row.status,
    seq: row.seq,
    createdAt: row.created_at,
  };
}

export function toUserInput(row: UserInputRow): UserInputRecord {
  return {
    request: {
      id: row.id,
      threadId: row.thread_id,
      turnId: row.turn_id,
      questions: JSON.parse(row.questions) as UserInputQuestion[],
      createdAt: row.created_at,
    },
    status: row.status,
    answers: row.answers === null ? null : (JSON.parse(row.answers) as Record<string, string>),
  };
}
