/**
 * Backlinks (issue 24): what `citedBy` adds to a history page on a 100,000-message thread with
 * 10,000 citations (SQLite, or PostgreSQL with BENCH_STORE=postgres). The seeded thread holds
 * 1,823 citations (every 25th prompt, plus the last prompt's deep links); 8,177 more index rows
 * are added from its prompts: 7,000 spread over the whole thread and 1,177 on the 20 newest
 * answers (about 59 citing messages each, 8 distinct ranges), so the newest page is the most
 * cited one. "citedBy of a page" is the query a page adds; the page benches include it.
 */
import { join } from "node:path";
import type { Message } from "@app/protocol";
import { afterAll, bench, describe } from "vitest";
import { seedDemoThread, seededAnswerLead, seededMessageCount } from "../src/seed.ts";
import type { CitationIndexEntry } from "../src/storage/citationIndex.ts";
import { openDatabase } from "../src/storage/db.ts";
import { openStore } from "../src/storage/openStore.ts";
import { importSqliteIntoPostgres } from "../src/storage/postgres/importSqlite.ts";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import { benchDatabaseUrl, noopAdapter, openServices, stopBenchDatabase } from "./fixtures.ts";

const TURNS = 45_455; // 100,002 messages
const CITATIONS = 10_000;
const dataDir = await makeTempDir("chat-bench-cited-by-");
const threadId = await seedThread();
const services = await openServices(dataDir, noopAdapter);
const total = seededMessageCount(TURNS);
const all = (await services.store.messagesBefore(threadId, null, total)).messages;
const prompts = all.filter((m) => m.role === "user");
const answers = all.filter((m) => m.kind === "answer");
await addCitations();
const newest = await services.threads.getMessagePage(threadId, {});
const newestAnswerIds = newest.messages.filter((m) => m.role === "assistant").map((m) => m.id);
const middle = all[Math.floor(all.length / 2)]!;
const middlePage = await services.threads.getMessagePage(threadId, { around: middle.id });
const middleAnswerIds = middlePage.messages.filter((m) => m.role === "assistant").map((m) => m.id);
const newestCitedBy = newest.messages.reduce((sum, m) => sum + (m.citedBy?.count ?? 0), 0);
const newestCited = newest.messages.filter((m) => (m.citedBy?.count ?? 0) > 0).length;
if (newestCitedBy < 1000) throw new Error(`newest page cited only ${newestCitedBy} times`);

async function seedThread(): Promise<string> {
  const sqlite = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
  const id = await seedDemoThread(sqlite, { turns: TURNS });
  await sqlite.close();
  if (benchDatabaseUrl !== null) {
    const db = openDatabase(join(dataDir, "chat.sqlite"));
    await importSqliteIntoPostgres(db, benchDatabaseUrl);
    db.close();
  }
  return id;
}

function entry(citing: Message, answerIndex: number, variant: number): CitationIndexEntry {
  const source = answers[answerIndex]!;
  const lead = seededAnswerLead(answerIndex + 1);
  const start = (variant % 8) * 4;
  const end = Math.min(lead.length, start + 20);
  return {
    citingMessageId: citing.id,
    citingThreadId: threadId,
    citingTurnId: citing.turnId,
    sourceEnvironmentId: services.store.environmentId,
    sourceThreadId: threadId,
    sourceMessageId: source.id,
    quote: {
      text: lead.slice(start, end),
      start,
      end,
      prefix: lead.slice(Math.max(0, start - 32), start),
      suffix: lead.slice(end, end + 32),
    },
    comment: variant % 3 === 0 ? `Comment ${variant}` : null,
    createdAt: citing.createdAt,
  };
}

async function addCitations(): Promise<void> {
  const seeded = await services.store.citedByOf(
    threadId,
    answers.map((a) => a.id),
  );
  let existing = 0;
  for (const citedBy of seeded.values()) existing += citedBy.ranges.length > 0 ? citedBy.count : 0;
  const extra = CITATIONS - 1_823;
  const hot = 1_177;
  const entries: CitationIndexEntry[] = [];
  // Spread: prompt p cites an answer a few turns before it.
  for (let i = 0; i < extra - hot; i++) {
    const p = Math.floor(((i + 0.5) * (prompts.length - 1)) / (extra - hot)) + 1;
    entries.push(entry(prompts[p]!, Math.max(0, p - 1 - (i % 7)), i));
  }
  // Hot: the newest 20 answers, each cited by about 59 distinct prompts.
  for (let i = 0; i < hot; i++) {
    const citing = prompts[prompts.length - 1 - i]!;
    entries.push(entry(citing, answers.length - 1 - (i % 20), i));
  }
  await services.store.transaction(async (tx) => {
    for (let i = 0; i < entries.length; i += 1_000) {
      await tx.insertCitations(entries.slice(i, i + 1_000));
    }
  });
  if (existing < 1_000) throw new Error(`expected the seeded citations, found ${existing}`);
}

afterAll(async () => {
  await services.provider.close();
  await services.store.close();
  stopBenchDatabase();
  await removeDir(dataDir);
});

function check(count: number, expected: number): void {
  if (count !== expected) throw new Error(`expected ${expected}, got ${count}`);
}

describe(`citedBy on a ${total.toLocaleString("en-US")}-message thread with ${CITATIONS.toLocaleString("en-US")} citations, 50 per page`, () => {
  bench("newest page (with citedBy)", async () => {
    check((await services.threads.getMessagePage(threadId, {})).messages.length, 50);
  });
  bench("newest page, messages and turns only (before citedBy)", async () => {
    const window = await services.store.messagesBefore(threadId, null, 50);
    await services.store.turnsByIds([...new Set(window.messages.map((m) => m.turnId))]);
    check(window.messages.length, 50);
  });
  bench("citedBy of the newest page (the added query)", async () => {
    check((await services.store.citedByOf(threadId, newestAnswerIds)).size, newestCited);
  });
  bench("around window in the middle (with citedBy)", async () => {
    check(
      (await services.threads.getMessagePage(threadId, { around: middle.id })).messages.length,
      50,
    );
  });
  bench("citedBy of the middle window (the added query)", async () => {
    await services.store.citedByOf(threadId, middleAnswerIds);
  });
  bench("cited-by list of the most cited answer (first page of 50)", async () => {
    const page = await services.threads.getCitedBy(threadId, answers.at(-1)!.id, {});
    check(page.citations.length, 50);
  });
});
