/**
 * Seeds a long demo thread for history paging, citation navigation and benchmarks:
 *
 *   pnpm --filter @app/server seed -- --thread-turns 2000 [--data-dir DIR] [--title TEXT]
 *
 * Writes to PostgreSQL instead when DATABASE_URL is set. Everything is written in one
 * transaction with deterministic Markdown-rich content, search index included
 * ({@link SeededSearchTexts}). Every 10th
 * turn has two progress messages before its answer (the web app folds them), and every 25th
 * prompt cites the first paragraph of an answer 20 turns earlier, so following the chip loads
 * older history. The last prompt also cites answers 1, 3, 50, 300 and 1,900 turns back (those
 * that exist), with the comment "Deep link to turn N", for jumps to any depth.
 */

import { pathToFileURL } from "node:url";
import { expandAssistantCitationsForProvider, serializeAssistantCitation } from "@app/citations";
import { ConfigError, loadConfig } from "./config.ts";
import { newId as mintId } from "./domain/ids.ts";
import type { ChatStore, FinishedTurnInput } from "./storage/chatStore.ts";
import { citationEntriesOf } from "./storage/citationIndex.ts";
import { openStore } from "./storage/openStore.ts";
import { searchTextOf } from "./storage/searchText.ts";
import { deriveBranchName } from "./titles.ts";

/** Options of {@link seedDemoThread}. */
export interface SeedOptions {
  /** Number of turns (each: a prompt, sometimes progress updates, an answer). */
  turns: number;
  title?: string;
  /** Timestamp of the first message; later ones follow a second apart. */
  startAt?: Date;
  /** Makes each id (thread, then per turn: turn, prompt, progress updates, answer). */
  newId?: () => string;
}

/** Messages a seeded thread of `turns` turns holds. */
export function seededMessageCount(turns: number): number {
  return turns * 2 + Math.floor((turns + 9) / 10) * 2;
}

const TOPICS = [
  "streaming parsers",
  "SQLite indexes",
  "virtualized lists",
  "CSS highlights",
  "branch naming",
  "retry policies",
  "cursor pagination",
  "event sourcing",
];

/** The plain first paragraph of answer `n` (1-based); cited by later prompts. */
export function seededAnswerLead(n: number): string {
  return answerLead(String(n), TOPICS[n % TOPICS.length]!);
}

function answerLead(label: string, topic: string): string {
  return `Answer ${label} looks at ${topic} from a practical angle, one step at a time.`;
}

/** Answer `label` (its number, or a placeholder) on `topic`, with the table's two costs. */
function answerTextOf(label: string, topic: string, parse: number, store: number): string {
  return [
    answerLead(label, topic),
    `Here is the **short version** for ${topic}: keep the _hot path_ small and measure \`p50\` first.`,
    "- read the data once\n- keep an index for every query you page through\n- batch writes in one transaction",
    ["```ts", `const turn${label} = await api.sendTurn(threadId, "step ${label}");`, "```"].join(
      "\n",
    ),
    [
      "| Step | Cost |",
      "| --- | ---: |",
      `| parse | ${parse} ms |`,
      `| store | ${store} ms |`,
    ].join("\n"),
  ].join("\n\n");
}

function answerText(n: number): string {
  return answerTextOf(String(n), TOPICS[n % TOPICS.length]!, n % 7, n % 5);
}

function plainPromptOf(label: string, topic: string): string {
  return `Turn ${label}: tell me about ${topic}, with an example and a small table.`;
}

function progressTextOf(label: string, step: number): string {
  return `Progress ${step}/2 for turn ${label}: ${step === 1 ? "reading the question" : "drafting the table"}…`;
}

/**
 * A number that stands for the turn's number in a template: digits only, so the Markdown of a
 * message has the same structure with either, and found nowhere else in a seeded message.
 */
const PLACEHOLDER = "987654321";

/**
 * The search texts of seeded messages (issue 33). Rendering 105,000 messages one by one took
 * minutes, but a seeded message is one of a few hundred templates with the turn's number in
 * it: the rendered text of the template with {@link PLACEHOLDER} for the number, the number put
 * back, is the message's own rendered text (a digit string renders as itself wherever it
 * stands here; `seed.test.ts` holds this to `searchTextOf` of every message of a seeded thread).
 * Messages that are no template (prompts with citation links) are rendered as they are.
 */
export class SeededSearchTexts {
  readonly #templates = new Map<string, string>();

  #fromTemplate(key: string, role: "user" | "assistant", template: () => string, n: number) {
    let rendered = this.#templates.get(key);
    if (rendered === undefined) {
      rendered = searchTextOf(role, template());
      this.#templates.set(key, rendered);
    }
    return rendered.replaceAll(PLACEHOLDER, String(n));
  }

  answer(n: number): string {
    const topic = TOPICS[n % TOPICS.length]!;
    return this.#fromTemplate(
      `answer ${topic} ${n % 7} ${n % 5}`,
      "assistant",
      () => answerTextOf(PLACEHOLDER, topic, n % 7, n % 5),
      n,
    );
  }

  /** `prompt` is the prompt of turn `n` as seeded. */
  prompt(n: number, prompt: string): string {
    const topic = TOPICS[n % TOPICS.length]!;
    if (prompt !== plainPromptOf(String(n), topic)) return searchTextOf("user", prompt);
    return this.#fromTemplate(
      `prompt ${topic}`,
      "user",
      () => plainPromptOf(PLACEHOLDER, topic),
      n,
    );
  }

  progress(n: number, step: number): string {
    return this.#fromTemplate(
      `progress ${step}`,
      "assistant",
      () => progressTextOf(PLACEHOLDER, step),
      n,
    );
  }
}

/** How far back the last prompt's deep links reach (in turns). */
export const SEEDED_DEEP_LINK_DISTANCES = [1, 3, 50, 300, 1900] as const;

function answerLink(
  citedTurn: number,
  comment: string,
  environmentId: string,
  threadId: string,
  answerIds: string[],
): string {
  const lead = seededAnswerLead(citedTurn);
  return serializeAssistantCitation({
    version: 1,
    environmentId,
    threadId,
    messageId: answerIds[citedTurn - 1]!,
    text: lead,
    start: 0,
    end: lead.length,
    prefix: "",
    suffix: "",
    comment,
  });
}

function promptText(
  n: number,
  last: boolean,
  environmentId: string,
  threadId: string,
  answerIds: string[],
): string {
  let text = plainPromptOf(String(n), TOPICS[n % TOPICS.length]!);
  const citedTurn = n - 20;
  if (n % 25 === 0 && citedTurn >= 1) {
    const link = answerLink(
      citedTurn,
      `Revisit turn ${citedTurn}`,
      environmentId,
      threadId,
      answerIds,
    );
    text += ` Also, going back to ${link} — does that still hold?`;
  }
  if (last) {
    const deep = SEEDED_DEEP_LINK_DISTANCES.filter((back) => n - back >= 1).map((back) =>
      answerLink(n - back, `Deep link to turn ${n - back}`, environmentId, threadId, answerIds),
    );
    if (deep.length > 0) text += ` Compare with ${deep.join(" ")}.`;
  }
  return text;
}

/** Turns handed to the store per `appendFinishedTurns` call. */
const SEED_BATCH_TURNS = 1_000;

/**
 * The seeded thread's turns in order, as the store writes them (`appendFinishedTurns`): each
 * prompt with its search text and citations, its progress updates and its answer. `at` gives
 * each message's time, `newId` each id (turn, prompt, progress updates, answer, in that order).
 */
export function* seededTurns(input: {
  turns: number;
  environmentId: string;
  threadId: string;
  at: () => string;
  newId: () => string;
}): Generator<FinishedTurnInput> {
  const { environmentId, threadId, at, newId } = input;
  const answerIds: string[] = [];
  const searchTexts = new SeededSearchTexts();
  for (let n = 1; n <= input.turns; n++) {
    const turnId = newId();
    const text = promptText(n, n === input.turns, environmentId, threadId, answerIds);
    const prompt = {
      id: newId(),
      text,
      providerInput: expandAssistantCitationsForProvider(text),
      searchText: searchTexts.prompt(n, text),
      now: at(),
    };
    const replies: FinishedTurnInput["replies"][number][] = [];
    if (n % 10 === 1) {
      for (const step of [1, 2]) {
        replies.push({
          id: newId(),
          kind: "progress",
          text: progressTextOf(String(n), step),
          searchText: searchTexts.progress(n, step),
          now: at(),
        });
      }
    }
    const answerId = newId();
    answerIds.push(answerId);
    replies.push({
      id: answerId,
      kind: "answer",
      text: answerText(n),
      searchText: searchTexts.answer(n),
      now: at(),
    });
    // Indexed as an accepted prompt is (backlinks).
    const citations = citationEntriesOf({
      messageId: prompt.id,
      threadId,
      turnId,
      text,
      createdAt: prompt.now,
    });
    yield { turnId, prompt, replies, citations };
  }
}

/**
 * Creates one long thread in a single transaction; returns its id. Its turns go to the store
 * in batches (`appendFinishedTurns`: a few statements per thousand turns, search and citation
 * indexes included), not one query per row.
 */
export async function seedDemoThread(store: ChatStore, options: SeedOptions): Promise<string> {
  if (!Number.isSafeInteger(options.turns) || options.turns < 1) {
    throw new Error(`--thread-turns must be a positive integer (got ${options.turns}).`);
  }
  const newId = options.newId ?? mintId;
  const start = (options.startAt ?? new Date("2026-01-01T00:00:00.000Z")).getTime();
  let tick = 0;
  const at = () => new Date(start + 1000 * tick++).toISOString();
  const threadId = newId();
  const title = options.title ?? `Long demo thread (${options.turns} turns)`;
  await store.transaction(async (repo) => {
    await repo.createThread({ id: threadId, title, now: at() });
    await repo.setThreadTitle({
      id: threadId,
      title,
      titleSource: "custom",
      branchName: deriveBranchName(title),
      now: at(),
    });
    let batch: FinishedTurnInput[] = [];
    const turns = seededTurns({
      turns: options.turns,
      environmentId: store.environmentId,
      threadId,
      at,
      newId,
    });
    for (const turn of turns) {
      batch.push(turn);
      if (batch.length < SEED_BATCH_TURNS) continue;
      await repo.appendFinishedTurns(threadId, batch);
      batch = [];
    }
    await repo.appendFinishedTurns(threadId, batch);
  });
  return threadId;
}

function parseArgs(argv: string[]): { turns: number; dataDir?: string; title?: string } {
  const out: { turns: number; dataDir?: string; title?: string } = { turns: 2000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (arg === "--") continue;
    if (value === undefined || value.startsWith("--")) throw new Error(`${arg} needs a value.`);
    if (arg === "--thread-turns") {
      if (!/^\d{1,7}$/.test(value)) {
        throw new Error(`--thread-turns must be a positive integer (got "${value}").`);
      }
      out.turns = Number(value);
    } else if (arg === "--data-dir") out.dataDir = value;
    else if (arg === "--title") out.title = value;
    else
      throw new Error(
        `Unknown option ${arg}. Use --thread-turns N [--data-dir DIR] [--title TEXT].`,
      );
    i++;
  }
  return out;
}

async function main(): Promise<void> {
  try {
    const args = parseArgs(process.argv.slice(2));
    const config = loadConfig(
      args.dataDir ? { ...process.env, DATA_DIR: args.dataDir } : process.env,
    );
    const store = await openStore(config);
    try {
      const began = performance.now();
      const threadId = await seedDemoThread(store, {
        turns: args.turns,
        ...(args.title === undefined ? {} : { title: args.title }),
      });
      const ms = Math.round(performance.now() - began);
      const count = seededMessageCount(args.turns);
      const into = config.databaseUrl === null ? config.dataDir : "PostgreSQL (DATABASE_URL)";
      console.log(`Seeded ${count} messages (${args.turns} turns) in ${ms} ms into ${into}`);
      console.log(`Open http://${config.host}:${config.port}/${store.environmentId}/${threadId}`);
    } finally {
      await store.close();
    }
  } catch (error) {
    const message =
      error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    console.error(`seed: ${message}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) void main();
