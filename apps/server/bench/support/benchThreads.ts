/**
 * The data of `threadsAndSearchAll.ts`: `threads` threads of `turns` turns (a prompt and an
 * answer each), written two ways that must give the same rows:
 *
 * - {@link seedThroughStore}: the store's own write path (`createThread`, `insertTurnWithPrompt`,
 *   `insertAssistantMessage`, `updateTurn`, the background search indexer), a few hundred
 *   messages a second: fine for a few thousand threads, hours for 1,000,000 messages.
 * - {@link bulkSeedSqlite}: the same rows written straight into the SQLite tables (threads,
 *   turns, messages, `message_search` and its FTS rows) in one transaction with prepared
 *   statements, each message's rendered text from a template rendered once per word by
 *   `searchTextOf`. {@link checkBulkSeed} compares both ways on a few threads before a run, so
 *   the fast path cannot drift from the real one unnoticed.
 */
import type Database from "better-sqlite3";
import type { ChatStore } from "../../src/storage/chatStore.ts";
import { searchTextOf } from "../../src/storage/searchText.ts";
import { sqliteFtsWriter } from "../../src/storage/sqliteSearchFts.ts";

export const WORDS = ["parser", "index", "cursor", "stream", "layout", "branch", "retry", "cache"];
/** Threads whose answers also say {@link SOME_THREADS_PHRASE}: 1 in this many. */
export const SOME_THREADS_EVERY = 50;
export const SOME_THREADS_PHRASE = "seldom said";

export function threadIdOf(t: number): string {
  return `bench-${String(t).padStart(7, "0")}`;
}

/** Pairs of threads share an instant: ties in `updated_at` on every page. */
export function threadTimeOf(t: number): string {
  return new Date(Date.UTC(2024, 0, 1) + Math.floor(t / 2) * 1000).toISOString();
}

export function promptOf(t: number, n: number): string {
  return `How does the ${WORDS[(t + n) % WORDS.length]!} work in thread ${t}?`;
}

export function answerOf(t: number, n: number): string {
  const word = WORDS[(t + n) % WORDS.length]!;
  const extra = t % SOME_THREADS_EVERY === 0 ? ` It is ${SOME_THREADS_PHRASE}.` : "";
  return `The **${word}** keeps one index per query; see marker${t}x${n} and the shared notes.${extra}`;
}

/** Threads `from` to `to - 1` through the store's write path (then waits for the indexer). */
export async function seedThroughStore(
  store: ChatStore,
  from: number,
  to: number,
  turns: number,
): Promise<void> {
  await store.transaction(async (tx) => {
    for (let t = from; t < to; t++) {
      const id = threadIdOf(t);
      const at = threadTimeOf(t);
      await tx.createThread({ id, title: `Bench thread ${t}`, now: at });
      for (let n = 0; n < turns; n++) {
        await tx.insertTurnWithPrompt({
          threadId: id,
          turnId: `${id}-t${n}`,
          messageId: `${id}-p${n}`,
          text: promptOf(t, n),
          providerInput: "x",
          now: at,
        });
        await tx.insertAssistantMessage({
          id: `${id}-a${n}`,
          threadId: id,
          turnId: `${id}-t${n}`,
          kind: "answer",
          text: answerOf(t, n),
          status: "complete",
          now: at,
        });
        await tx.updateTurn({ id: `${id}-t${n}`, status: "completed", completedAt: at });
      }
    }
  });
  await store.searchIndexIdle();
}

/**
 * Rendered text through a template rendered once: `render(markdown)` of the message with its
 * numbers replaced by a placeholder, the numbers put back after. Every 10,000th text is also
 * rendered whole and compared.
 */
function templateRenderer(role: "user" | "assistant", of: (t: number, n: number) => string) {
  const PLACEHOLDER = "QQQ";
  const cache = new Map<string, string>();
  let count = 0;
  return (t: number, n: number): string => {
    const markdown = of(t, n);
    const template = markdown.replaceAll(/\d+/g, PLACEHOLDER);
    let rendered = cache.get(template);
    if (rendered === undefined) {
      rendered = searchTextOf(role, template);
      cache.set(template, rendered);
    }
    const numbers = markdown.match(/\d+/g) ?? [];
    let i = 0;
    const text = rendered.replaceAll(PLACEHOLDER, () => numbers[i++]!);
    if (i !== numbers.length || (++count % 10_000 === 1 && text !== searchTextOf(role, markdown))) {
      throw new Error(`The template does not render "${markdown}" as the pipeline does.`);
    }
    return text;
  };
}

/**
 * Threads `from` to `to - 1` written straight into a migrated SQLite database, as
 * {@link seedThroughStore} writes them (checked by {@link checkBulkSeed}).
 */
export function bulkSeedSqlite(
  db: Database.Database,
  from: number,
  to: number,
  turns: number,
): void {
  const s = (sql: string) => db.prepare(sql);
  const thread = s(
    `INSERT INTO threads (id, title, title_source, created_at, updated_at, message_count, last_seq)
     VALUES (?, ?, 'custom', ?, ?, ?, ?)`,
  );
  const turn = s(
    `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at, completed_at)
     VALUES (?, ?, ?, 'completed', 'x', ?, ?)`,
  );
  const message = s(
    `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
       parent_id, chosen, on_path)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'complete', ?, ?, 1, 1)`,
  );
  const search = s(
    "INSERT INTO message_search (message_id, thread_id, role, text) VALUES (?, ?, ?, ?)",
  );
  // The store's own FTS writer: its rowid layout and piece count (issue 33) stay one rule.
  const fts = sqliteFtsWriter(db);
  const promptText = templateRenderer("user", promptOf);
  const answerText = templateRenderer("assistant", answerOf);
  const indexed = (id: string, threadId: string, role: "user" | "assistant", text: string) => {
    const row = search.run(id, threadId, role, text);
    fts.writeNew(Number(row.lastInsertRowid), text);
  };
  db.transaction(() => {
    for (let t = from; t < to; t++) {
      const id = threadIdOf(t);
      const at = threadTimeOf(t);
      thread.run(id, `Bench thread ${t}`, at, at, turns * 2, turns * 2);
      let parent: string | null = null;
      for (let n = 0; n < turns; n++) {
        const turnId = `${id}-t${n}`;
        const prompt = `${id}-p${n}`;
        const answer = `${id}-a${n}`;
        turn.run(turnId, id, 2 * n + 1, at, at);
        message.run(prompt, id, turnId, 2 * n + 1, "user", "prompt", promptOf(t, n), at, parent);
        indexed(prompt, id, "user", promptText(t, n));
        message.run(
          answer,
          id,
          turnId,
          2 * n + 2,
          "assistant",
          "answer",
          answerOf(t, n),
          at,
          prompt,
        );
        indexed(answer, id, "assistant", answerText(t, n));
        parent = answer;
      }
    }
  })();
}

/** Every row both ways of seeding write, in a stable order, for {@link checkBulkSeed}. */
export function dumpSeededRows(db: Database.Database): string {
  const tables = [
    "SELECT * FROM threads ORDER BY id",
    "SELECT * FROM turns ORDER BY id",
    "SELECT * FROM messages ORDER BY id",
    "SELECT * FROM message_search ORDER BY id",
    "SELECT count(*) AS pending FROM search_pending",
    "SELECT count(*) AS events FROM events",
    `SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH '"shared notes"'
     ORDER BY rowid`,
    `SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH '"how does the cursor"'
     ORDER BY rowid`,
  ];
  return JSON.stringify(tables.map((sql) => db.prepare(sql).all()));
}
