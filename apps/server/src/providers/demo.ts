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
 */
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

/** A citation entry as read back from the `<assistant_citations>` block. */
export interface DemoCitationEntry {
  id: string;
  text: string;
  comment?: string;
}

/** What the demo read from the citation block at the end of the input. */
export type DemoCitationBlock =
  | { status: "none" }
  | { status: "ok"; entries: DemoCitationEntry[] }
  | { status: "unreadable"; reason: string };

/** The question asked when the prompt contains "ask me". */
export const DEMO_QUESTION: UserInputQuestion = {
  id: "choice",
  prompt: "Which option should I use?",
  options: ["A", "B"],
};

/**
 * The sentence every answer contains twice, so that citing it exercises ambiguous resolution.
 */
export const DEMO_REPEATED_SENTENCE = "The demo provider repeats this sentence on purpose.";

const OPEN_TAG = "<assistant_citations>";
const CLOSE_TAG = "</assistant_citations>";
const DEFAULT_CHUNK_DELAY_MS = 15;
const DEFAULT_CHUNK_SIZE = 24;
/** How often a "long reply" repeats the answer. */
const LONG_REPLY_REPEATS = 40;
/** Echoed quotes and comments are shortened so the account stays short. */
const MAX_ECHO_CODE_POINTS = 160;

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

/**
 * Splits off the LAST `<assistant_citations>` block when it closes at the very end of the input,
 * which is where the provider expansion appends it. A tag-like text elsewhere in the prompt is
 * ordinary user text.
 */
export function splitCitationBlock(input: string): { userText: string; block: string | null } {
  const trimmedEnd = input.trimEnd();
  const open = trimmedEnd.lastIndexOf(OPEN_TAG);
  if (
    open === -1 ||
    !trimmedEnd.endsWith(CLOSE_TAG) ||
    open + OPEN_TAG.length > trimmedEnd.length - CLOSE_TAG.length
  ) {
    return { userText: input, block: null };
  }
  return {
    userText: input.slice(0, open),
    block: trimmedEnd.slice(open + OPEN_TAG.length, trimmedEnd.length - CLOSE_TAG.length),
  };
}

/** Reads the citation entries (id, quote, comment) from the block at the end of the input. */
export function readCitationBlock(input: string): DemoCitationBlock {
  const { block } = splitCitationBlock(input);
  if (block === null) return { status: "none" };
  // The block is one description line followed by the JSON array (2-space indent).
  const jsonStart = block.search(/^\s*\[/m);
  if (jsonStart === -1) return { status: "unreadable", reason: "no JSON array in the block" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.slice(jsonStart));
  } catch (error) {
    return { status: "unreadable", reason: `invalid JSON (${errorMessage(error)})` };
  }
  if (!Array.isArray(parsed)) return { status: "unreadable", reason: "the JSON is not an array" };
  const entries: DemoCitationEntry[] = [];
  for (const item of parsed) {
    const entry = toCitationEntry(item);
    if (entry === null)
      return { status: "unreadable", reason: "an entry lacks id or citation.text" };
    entries.push(entry);
  }
  return { status: "ok", entries };
}

function toCitationEntry(item: unknown): DemoCitationEntry | null {
  if (!isRecord(item) || typeof item.id !== "string" || !isRecord(item.citation)) return null;
  const { text, comment } = item.citation;
  if (typeof text !== "string") return null;
  return typeof comment === "string" && comment.trim() !== ""
    ? { id: item.id, text, comment }
    : { id: item.id, text };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface AnswerParts {
  userText: string;
  turnNumber: number;
  citations: DemoCitationBlock;
  answers: Record<string, string> | undefined;
}

const OPENINGS = [
  "Here is a demo answer.",
  "Thanks, this is the demo provider speaking.",
  "A short demo reply follows.",
  "The demo provider has read your message.",
] as const;

const CODE_SAMPLES = [
  ["ts", "function add(a: number, b: number): number {", "  return a + b;", "}"],
  ["python", "def total(values):", "    return sum(v for v in values if v > 0)", ""],
  ["sh", "git switch -c demo-branch", 'git commit -m "Try the demo provider"', ""],
] as const;

function composeAnswer({ userText, turnNumber, citations, answers }: AnswerParts): string {
  const collapsed = userText.replace(/\s+/g, " ").trim();
  const words = collapsed === "" ? [] : collapsed.split(" ");
  const seed = fnv1a(collapsed);
  const opening = OPENINGS[seed % OPENINGS.length]!;
  const [language, ...codeLines] = CODE_SAMPLES[(seed >>> 8) % CODE_SAMPLES.length]!;
  const firstWords = truncateCodePoints(words.slice(0, 8).join(" "), 80);
  const citationCount = citations.status === "ok" ? citations.entries.length : 0;

  const parts: string[] = [
    `${opening} You began with ${firstWords === "" ? "an empty message" : codeSpan(firstWords)}. ${DEMO_REPEATED_SENTENCE}`,
    `This reply is turn ${turnNumber} of the thread. It shows **bold**, _emphasis_ and \`inline code\` so you can try selecting and citing rendered text.`,
    [
      "What this reply contains:",
      "",
      "- paragraphs of plain text",
      "- this bulleted list",
      `- a fenced \`${language}\` code block`,
      "- a table",
      "- an account of the citations it received",
    ].join("\n"),
    [`\`\`\`${language}`, ...codeLines.filter((line) => line !== ""), "```"].join("\n"),
    [
      "| Measure | Value |",
      "| --- | ---: |",
      `| Words in your message | ${words.length} |`,
      `| Characters in your message | ${[...collapsed].length} |`,
      `| Citations received | ${citationCount} |`,
    ].join("\n"),
  ];
  if (answers !== undefined) parts.push(formatAnswers(answers));
  parts.push(`To repeat: ${DEMO_REPEATED_SENTENCE}`);
  parts.push(formatCitationAccount(citations));
  return parts.join("\n\n");
}

function formatAnswers(answers: Record<string, string>): string {
  const ids = Object.keys(answers);
  if (ids.length === 0) return "You answered my question without choosing anything.";
  const lines = ["You answered my question:", ""];
  for (const id of ids) {
    const answer = answers[id]!;
    // Answers are echoed verbatim: a code span keeps them literal, a fence keeps line breaks.
    if (/[\r\n]/.test(answer)) {
      const fence = "`".repeat(Math.max(3, longestRun(answer, "`") + 1));
      lines.push(`- ${codeSpan(id)}:`, "", `${fence}text`, answer, fence, "");
    } else if (answer === "") {
      lines.push(`- ${codeSpan(id)}: (an empty answer)`);
    } else {
      lines.push(`- ${codeSpan(id)}: ${codeSpan(answer)}`);
    }
  }
  return lines.join("\n").trimEnd();
}

function formatCitationAccount(citations: DemoCitationBlock): string {
  if (citations.status === "none")
    return "**Citations:** I received no citations with this message.";
  if (citations.status === "unreadable") {
    return `**Citations:** I received a citation block but could not read it: ${citations.reason}.`;
  }
  const count = citations.entries.length;
  const lines = [
    `**Citations:** I received ${count} ${count === 1 ? "citation" : "citations"}:`,
    "",
  ];
  for (const entry of citations.entries) {
    // Quotes and comments are model output or user text: code spans keep any Markdown or HTML inert.
    let line = `- ${codeSpan(entry.id)} quotes ${codeSpan(echo(entry.text))}`;
    if (entry.comment !== undefined) line += ` with the comment ${codeSpan(echo(entry.comment))}`;
    lines.push(line);
  }
  return lines.join("\n");
}

function echo(text: string): string {
  return truncateCodePoints(text.replace(/\s+/g, " ").trim(), MAX_ECHO_CODE_POINTS);
}

/**
 * A Markdown code span holding `text` literally: the fence is longer than any backtick run
 * inside, and padding spaces (stripped by CommonMark) keep edge backticks apart from the fence.
 */
export function codeSpan(text: string): string {
  const fence = "`".repeat(longestRun(text, "`") + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || /^ .* $/s.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

function truncateCodePoints(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join("")}…`;
}

/** FNV-1a over UTF-16 units: a stable, clock-free way to vary replies by input. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
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

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
