/**
 * What a message's conversation controls do (issue 30): provided by the thread view, read by
 * each message row, so rows need no callback props. Null (no provider) shows no controls.
 */
import type { Message } from "@app/protocol";
import { createContext, type ReactNode } from "react";

export type ConversationActions = {
  /** The message being edited in place, if any. */
  editingId: string | null;
  setEditing(messageId: string | null): void;
  /** The in-place editor for a prompt (the composer's Lexical nodes: rendered by the thread). */
  renderEditor(message: Message): ReactNode;
  regenerate(messageId: string): void;
  selectVersion(messageId: string, version: number): void;
  branch(messageId: string): void;
};

export const ConversationActionsContext = createContext<ConversationActions | null>(null);
