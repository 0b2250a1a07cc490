/**
 * The embedded `demo` provider (DESIGN.md section 7): deterministic Markdown replies streamed in
 * chunks, so the app can be used and tested without a model. The same input and history always
 * produce the same messages; nothing depends on the clock or on randomness.
 *
 * Triggers (matched case-insensitively in the user's own text, never inside the citation block,
 * so quoting an earlier reply cannot set them off):
 * - "fail please": the turn fails before any message is written.
 * - "ask me": asks the question `choice` ("Which option should I use?", options A and B) through
 *   ctx.requestUserInput and quotes the answers verbatim in the reply.
 * - "progress", or every 3rd turn: one or two "progress" messages come before the answer.
 * - "long reply": the answer is written out 40 times (a reply that streams for a while, to
 *   try **Stop**).
 *
 * This module plans a turn and streams it; the answer's text is `demoAnswer.ts` and reading the
 * citation block back is `demoCitationBlock.ts`.
 */
import { composeAnswer } from "./demoAnswer.ts";
import { readCitationBlock, splitCitationBlock } from "./demoCitationBlock.ts";
import type {
  ProviderAdapter,
  ProviderHistoryEntry,
  ProviderTurnContext,
  UserInputQuestion,
} from "./types.ts";

/** Options of {@link createDemoProvider}. */
export interface DemoProviderOptions {
  /** Pause between streamed chunks; 0 streams without timers (tests, benchmarks). Default 15. */
  chunkDelayMs?: number;
  /** Code points per streamed chunk. Default 24. */
  chunkSize?: number;
}

/** One message of a demo turn, before streaming. */
export interface DemoMessage {
  kind: "progress" | "answer";
  text: string;
}

/** The question asked when the prompt contains "ask me". */
export const DEMO_QUESTION: UserInputQuestion = {
  id: "choice",
  prompt: "Which option should I use?",
  options: ["A", "B"],
};

const DEFAULT_CHUNK_DELAY_MS = 15;
const DEFAULT_CHUNK_SIZE = 24;
/** How often a "long reply" repeats the answer. */
const LONG_REPLY_REPEATS = 40;

/**
 * Creates the demo adapter.
 * @throws RangeError when an option is negative or not an integer where one is needed.
 */
export function createDemoProvider(options: DemoProviderOptions = {}): ProviderAdapter {
  const chunkDelayMs = options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isFinite(chunkDelayMs) || chunkDelayMs < 0) {
    throw new RangeError(`demo provider: chunkDelayMs must be a number >= 0, got ${chunkDelayMs}`);
  }
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new RangeError(`demo provider: chunkSize must be an integer >= 1, got ${chunkSize}`);
  }

  return {
    name: "demo",
    async runTurn(ctx: ProviderTurnContext): Promise<void> {
      throwIfAborted(ctx.signal);
      const plan = planDemoTurn(ctx.input, ctx.history);
      if (plan.fails) {
        throw new Error('Demo provider failed on purpose (the prompt contains "fail please").');
      }
      for (const text of plan.progress) {
        await streamMessage(ctx, "progress", text, chunkDelayMs, chunkSize);
      }

      let answers: Record<string, string> | undefined;
      if (plan.asksUser) {
        answers = await ctx.requestUserInput([DEMO_QUESTION]);
        throwIfAborted(ctx.signal);
      }
      await streamMessage(ctx, "answer", plan.answer(answers), chunkDelayMs, chunkSize);
    },
  };
}

/** The deterministic content of one demo turn. */
export interface DemoTurnPlan {
  /** The turn fails before writing anything ("fail please"). */
  fails: boolean;
  progress: string[];
  asksUser: boolean;
  /** Builds the answer; `answers` are the user's replies when {@link asksUser} is true. */
  answer(answers?: Record<string, string>): string;
}

/**
 * Plans a turn from the (expanded) input and the history. Pure: the adapter only streams it.
 */
export function planDemoTurn(
  input: string,
  history: readonly ProviderHistoryEntry[],
): DemoTurnPlan {
  const { userText } = splitCitationBlock(input);
  const lower = userText.toLowerCase();
  const turnNumber = history.filter((entry) => entry.role === "user").length + 1;
  const progress: string[] = lower.includes("progress")
    ? ["Reading the thread…", "Drafting an answer…"]
    : turnNumber % 3 === 0
      ? ["Reading the thread…"]
      : [];
  const citations = readCitationBlock(input);
  return {
    fails: lower.includes("fail please"),
    progress,
    asksUser: lower.includes("ask me"),
    answer: (answers) => {
      const answer = composeAnswer({ userText, turnNumber, citations, answers });
      if (!lower.includes("long reply")) return answer;
      return Array.from(
        { length: LONG_REPLY_REPEATS },
        (_, i) => `### Part ${i + 1}\n\n${answer}`,
      ).join("\n\n");
    },
  };
}

async function streamMessage(
  ctx: ProviderTurnContext,
  kind: "progress" | "answer",
  text: string,
  delayMs: number,
  chunkSize: number,
): Promise<void> {
  throwIfAborted(ctx.signal);
  const writer = ctx.startMessage(kind);
  const points = [...text];
  for (let i = 0; i < points.length; i += chunkSize) {
    if (i > 0 && delayMs > 0) await sleep(delayMs, ctx.signal);
    throwIfAborted(ctx.signal);
    writer.append(points.slice(i, i + chunkSize).join(""));
  }
  writer.complete();
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("The turn was aborted.");
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
