/**
 * A ProviderTurnContext for adapter tests: records every message, chunk and question, and
 * answers questions with a scripted reply.
 */
import type { ProviderHistoryEntry, ProviderTurnContext, UserInputQuestion } from "../types.ts";

/** One message as the adapter wrote it. */
export interface RecordedMessage {
  kind: "progress" | "answer";
  chunks: string[];
  completed: boolean;
}

/** Options of {@link createRecordingContext}. */
export interface RecordingContextOptions {
  input: string;
  history?: ProviderHistoryEntry[];
  signal?: AbortSignal;
  /** Answers to requestUserInput; by default a question makes the test fail. */
  answer?: (questions: UserInputQuestion[]) => Promise<Record<string, string>>;
  /** Called after each append, e.g. to abort mid-stream. */
  onAppend?: (message: RecordedMessage) => void;
}

/** The context plus what the adapter did with it. */
export interface RecordingContext {
  ctx: ProviderTurnContext;
  messages: RecordedMessage[];
  questions: UserInputQuestion[][];
}

/** Full text of a recorded message. */
export function messageText(message: RecordedMessage): string {
  return message.chunks.join("");
}

/** Creates a recording context. */
export function createRecordingContext(options: RecordingContextOptions): RecordingContext {
  const messages: RecordedMessage[] = [];
  const questions: UserInputQuestion[][] = [];
  const ctx: ProviderTurnContext = {
    threadId: "thread-1",
    turnId: "turn-1",
    input: options.input,
    history: options.history ?? [],
    signal: options.signal ?? new AbortController().signal,
    startMessage(kind) {
      const message: RecordedMessage = { kind, chunks: [], completed: false };
      messages.push(message);
      return {
        append(chunk) {
          if (message.completed) throw new Error("append after complete");
          message.chunks.push(chunk);
          options.onAppend?.(message);
        },
        complete() {
          if (message.completed) throw new Error("complete called twice");
          message.completed = true;
        },
      };
    },
    async requestUserInput(asked) {
      questions.push(asked);
      if (options.answer === undefined) throw new Error("unexpected requestUserInput");
      return options.answer(asked);
    },
  };
  return { ctx, messages, questions };
}
