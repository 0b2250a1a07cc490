/**
 * The adapter contract. ProviderService expands citations before calling an adapter, so an
 * adapter only ever sees readable input (markers plus one <assistant_citations> block) and
 * never parses citation links itself.
 */
import type { UserInputQuestion } from "@app/protocol";

export type ProviderHistoryEntry = { role: "user" | "assistant"; text: string };

/** A question for the user; the shape is the protocol's (`UserInputQuestionSchema`). */
export type { UserInputQuestion };

export interface ProviderTurnContext {
  threadId: string;
  turnId: string;
  /** Expanded, validated input for this turn. */
  input: string;
  /** Earlier turns (user inputs expanded the same way, final assistant answers), oldest first. */
  history: ProviderHistoryEntry[];
  /** Aborted when the server shuts down or the turn is cancelled. */
  signal: AbortSignal;
  /** Starts a new assistant message; "progress" messages are folded in the UI. */
  startMessage(kind: "progress" | "answer"): ProviderMessageWriter;
  /**
   * Asks the user questions and waits for the answers (`POST .../user-input`). Answers arrive
   * exactly as typed: no citation expansion and no input limit.
   */
  requestUserInput(questions: UserInputQuestion[]): Promise<Record<string, string>>;
}

export interface ProviderMessageWriter {
  append(chunk: string): void;
  complete(): void;
}

export interface ProviderAdapter {
  readonly name: string;
  /** Resolves when the turn is finished; a rejection becomes a visible turn error. */
  runTurn(ctx: ProviderTurnContext): Promise<void>;
}
