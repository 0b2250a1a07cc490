/**
 * Seeds a long demo thread for history paging, citation navigation and benchmarks:
 *
 *   pnpm --filter @app/server seed -- --thread-turns 2000 [--data-dir DIR] [--title TEXT]
 *
 * Writes to PostgreSQL instead when DATABASE_URL is set. Everything is written in one
 * transaction with deterministic Markdown-rich content. Every 10th
 * turn has two progress messages before its answer (the web app folds them), and every 25th
 * prompt cites the first paragraph of an answer 20 turns earlier, so following the chip loads
 * older history. The last prompt also cites answers 1, 3, 50, 300 and 1,900 turns back (those
 * that exist), with the comment "Deep link to turn N", for jumps to any depth.
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { expandAssistantCitationsForProvider, serializeAssistantCitation } from "@app/citations";
import { ConfigError, loadConfig } from "./config.ts";
import type { ChatStore } from "./storage/chatStore.ts";
import { citationEntriesOf } from "./storage/citationIndex.ts";
import { openStore } from "./storage/openStore.ts";
import { deriveBranchName } from "./titles.ts";

/** Options of {@link seedDemoThread}. */
export interface SeedOptions {
  /** Number of turns (each: a prompt, sometimes progress updates, an answer). */
  turns: number;
  title?: string;
  /** Timestamp of the first message; later ones follow a second apart. */
  startAt?: Date;
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
  const topic = TOPICS[n % TOPICS.length]!;
  return `Answer ${n} looks at ${topic} from a practical angle, one step at a time.`;
}

function answerText(n: number): string {
  const topic = TOPICS[n % TOPICS.length]!;
  return [
    seededAnswerLead(n),
    `Here is the **short version** for ${topic}: keep the _hot path_ small and measure \`p50\` first.`,
    "- read the data once\n- keep an index for every query you page through\n- batch writes in one transaction",
    ["```ts", `const turn${n} = await api.sendTurn(threadId, "step ${n}");`, "```"].join("\n"),
    [
      "| Step | Cost |",
      "| --- | ---: |",
      `| parse | ${n % 7} ms |`,
      `| store | ${n % 5} ms |`,
    ].join("\n"),
  ].join("\n\n");
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
  const topic = TOPICS[n % TOPICS.length]!;
  let text = `Turn ${n}: tell me about ${topic}, with an example and a small table.`;
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

/** Creates one long thread in a single transaction; returns its id. */
export async function seedDemoThread(store: ChatStore, options: SeedOptions): Promise<string> {
  if (!Number.isSafeInteger(options.turns) || options.turns < 1) {
    throw new Error(`--thread-turns must be a positive integer (got ${options.turns}).`);
  }
  const start = (options.startAt ?? new Date("2026-01-01T00:00:00.000Z")).getTime();
  let tick = 0;
  const at = () => new Date(start + 1000 * tick++).toISOString();
  const threadId = randomUUID();
  const title = options.title ?? `Long demo thread (${options.turns} turns)`;
  const answerIds: string[] = [];
  await store.transaction(async (repo) => {
    await repo.createThread({ id: threadId, title, now: at() });
    await repo.setThreadTitle({
      id: threadId,
      title,
      titleSource: "custom",
      branchName: deriveBranchName(title),
      now: at(),
    });
    for (let n = 1; n <= options.turns; n++) {
      const turnId = randomUUID();
      const prompt = promptText(n, n === options.turns, store.environmentId, threadId, answerIds);
      const { message } = await repo.insertTurnWithPrompt({
        threadId,
        turnId,
        messageId: randomUUID(),
        text: prompt,
        providerInput: expandAssistantCitationsForProvider(prompt),
        now: at(),
      });
      // Indexed as an accepted prompt is (backlinks).
      await repo.insertCitations(
        citationEntriesOf({ ...message, messageId: message.id, createdAt: message.createdAt }),
      );
      if (n % 10 === 1) {
        for (const step of [1, 2]) {
          await repo.insertAssistantMessage({
            id: randomUUID(),
            threadId,
            turnId,
            kind: "progress",
            text: `Progress ${step}/2 for turn ${n}: ${step === 1 ? "reading the question" : "drafting the table"}…`,
            status: "complete",
            now: at(),
          });
        }
      }
      const answerId = randomUUID();
      answerIds.push(answerId);
      const now = at();
      await repo.insertAssistantMessage({
        id: answerId,
        threadId,
        turnId,
        kind: "answer",
        text: answerText(n),
        status: "complete",
        now,
      });
      await repo.updateTurn({ id: turnId, status: "completed", completedAt: now });
    }
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
