/**
 * The find-in-thread index on PostgreSQL (issue 23): `message_search` holds each complete
 * message's rendered text and its case fold, with a `pg_trgm` GIN index on the fold, so a
 * `LIKE '%…%'` on it is served by the index for queries of three characters or more; shorter
 * ones walk the thread in order (`(thread_id, seq)`). A message gets its row when it is created
 * complete or when it finishes (any outcome), in the same transaction; a long one is queued there
 * in `search_pending` instead and gets its row from the background indexer (`searchIndexer.ts`)
 * right after, in order by `seq` like any other.
 *
 * `pg_trgm` is a trusted extension (PostgreSQL 13+), so the app's role may create it; where it
 * cannot (an older server, a locked-down role) the table stays without the trigram index and
 * search scans instead, said once in a log line.
 */
import type pg from "pg";
import type { ChatQueries } from "../chatStore.ts";
import {
  foldedSearchText,
  likeContains,
  type QueuedSearchText,
  SEARCH_INLINE_MAX_CHARS,
  type SearchCandidate,
  type SearchCandidateQuery,
  searchTextOf,
} from "../searchText.ts";
import type { PgContext } from "./pgRun.ts";

type Role = "user" | "assistant";

const TABLE = `
  CREATE TABLE message_search (
    message_id TEXT COLLATE "C" PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
    thread_id TEXT COLLATE "C" NOT NULL,
    seq BIGINT NOT NULL,
    role TEXT NOT NULL,
    text TEXT NOT NULL,
    folded TEXT NOT NULL
  );
  CREATE INDEX message_search_by_thread ON message_search (thread_id, seq);
`;

/** Migration 3: the table, its trigram index when `pg_trgm` is available, and the backfill. */
export async function migrateSearchIndex(client: pg.ClientBase): Promise<void> {
  await client.query(TABLE);
  // A failed statement would end the migration's transaction: try the extension in a savepoint.
  await client.query("SAVEPOINT trigram");
  try {
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    await client.query(
      "CREATE INDEX message_search_trigrams ON message_search USING gin (folded gin_trgm_ops)",
    );
    await client.query("RELEASE SAVEPOINT trigram");
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT trigram");
    console.warn(
      `Find in thread: no pg_trgm index (${error instanceof Error ? error.message : String(error)}); searches scan each thread.`,
    );
  }
  await backfill(client);
  // Statistics now, not at autovacuum's next round: without them the planner takes a thread
  // of 100,000 rows for a few hundred and sorts where it should read the index in order.
  await client.query("ANALYZE message_search");
}

async function backfill(client: pg.ClientBase): Promise<void> {
  let after = { threadId: "", seq: 0 };
  for (;;) {
    const { rows } = await client.query<{
      id: string;
      thread_id: string;
      seq: string;
      role: Role;
      text: string;
    }>(
      `SELECT id, thread_id, seq, role, text FROM messages
       WHERE status <> 'streaming' AND (thread_id, seq) > ($1, $2)
       ORDER BY thread_id, seq LIMIT 500`,
      [after.threadId, after.seq],
    );
    if (rows.length === 0) return;
    const texts = rows.map((row) => searchTextOf(row.role, row.text));
    await client.query(
      `INSERT INTO message_search (message_id, thread_id, seq, role, text, folded)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[])`,
      [
        rows.map((row) => row.id),
        rows.map((row) => row.thread_id),
        rows.map((row) => row.seq),
        rows.map((row) => row.role),
        texts,
        texts.map(foldedSearchText),
      ],
    );
    const last = rows.at(-1)!;
    after = { threadId: last.thread_id, seq: Number(last.seq) };
  }
}

/** Migration 4: the queue of long messages the background indexer renders off the event loop. */
export const SEARCH_QUEUE_TABLE = `
  CREATE TABLE search_pending (
    message_id TEXT COLLATE "C" PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE
  );
`;

/**
 * Indexes a message that is complete (created so, or finished); call in its transaction. A long
 * one is queued for the background indexer instead.
 */
export async function indexPgMessage(
  ctx: PgContext,
  message: { id: string; threadId: string; seq: number; role: Role; markdown: string },
): Promise<void> {
  if (message.markdown.length > SEARCH_INLINE_MAX_CHARS) {
    await ctx.run(
      "queueSearchText",
      "INSERT INTO search_pending (message_id) VALUES ($1) ON CONFLICT DO NOTHING",
      [message.id],
    );
    return;
  }
  await writeIndexRow(ctx, message.id, searchTextOf(message.role, message.markdown));
}

/** The message's index row, with this rendered text. */
async function writeIndexRow(ctx: PgContext, messageId: string, text: string): Promise<void> {
  await ctx.run(
    "indexMessage",
    `INSERT INTO message_search (message_id, thread_id, seq, role, text, folded)
     SELECT id, thread_id, seq, role, $2, $3 FROM messages WHERE id = $1
     ON CONFLICT (message_id) DO UPDATE SET text = excluded.text, folded = excluded.folded`,
    [messageId, text, foldedSearchText(text)],
  );
}

/** The background indexer's queries (`searchIndexer.ts`). */
export function pgSearchQueue(
  ctx: PgContext,
): Pick<ChatQueries, "queuedSearchTexts" | "writeSearchTextPiece" | "writeSearchText"> {
  return {
    queuedSearchTexts(
      limit: number,
      only?: readonly string[],
      except: readonly string[] = [],
      createdBefore?: string,
    ): Promise<QueuedSearchText[]> {
      return ctx.rows<QueuedSearchText>(
        "queuedSearchTexts",
        `SELECT m.id AS "messageId", m.role, m.text AS markdown
         FROM search_pending p JOIN messages m ON m.id = p.message_id
         WHERE ($2::text[] IS NULL OR p.message_id = ANY ($2::text[]) OR m.created_at < $4)
           AND NOT (p.message_id = ANY ($3::text[])) LIMIT $1`,
        [limit, only ?? null, except, createdBefore ?? null],
      );
    },
    // The GIN index is built by the database server, off this event loop: one row per text.
    async writeSearchTextPiece(): Promise<boolean> {
      return true;
    },
    // Called in a transaction: the DELETE locks the queue row, so a second process writing the
    // same message waits, then finds it gone.
    async writeSearchText(messageId: string, text: string): Promise<boolean> {
      const dequeued = await ctx.rows(
        "dequeueSearchText",
        "DELETE FROM search_pending WHERE message_id = $1 RETURNING message_id",
        [messageId],
      );
      if (dequeued.length === 0) return false;
      await writeIndexRow(ctx, messageId, text);
      return true;
    },
  };
}

/**
 * `writeSearchText` of a batch in one statement (the background indexer, issue 33): the DELETE
 * locks the queue rows, so a second process writing the same messages waits, then finds them
 * gone and writes nothing for them. Message ids are distinct (the queue's key).
 */
export async function writePgSearchTexts(
  ctx: PgContext,
  entries: readonly { messageId: string; text: string }[],
): Promise<void> {
  if (entries.length === 0) return;
  const ids = entries.map((entry) => entry.messageId);
  const texts = entries.map((entry) => entry.text);
  await ctx.run(
    "writeSearchTexts",
    `WITH dequeued AS (
       DELETE FROM search_pending WHERE message_id = ANY ($1::text[]) RETURNING message_id
     )
     INSERT INTO message_search (message_id, thread_id, seq, role, text, folded)
     SELECT m.id, m.thread_id, m.seq, m.role, u.text, u.folded
     FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, text, folded)
     JOIN dequeued d ON d.message_id = u.id JOIN messages m ON m.id = u.id
     ON CONFLICT (message_id) DO UPDATE SET text = excluded.text, folded = excluded.folded`,
    [ids, texts, texts.map(foldedSearchText)],
  );
}

/** Rows read in thread order before a rarer pattern goes to the trigram index instead. */
const ORDERED_WINDOW = 1000;

export function pgSearchQueries(ctx: PgContext): Pick<ChatQueries, "searchCandidates"> {
  type Row = { key: string; messageId: string; role: Role; text: string };
  const COLUMNS = `seq AS key, message_id AS "messageId", role, text`;
  // Only the path shown is searched (versions, issue 30).
  const SHOWN = "EXISTS (SELECT 1 FROM messages m WHERE m.id = message_id AND m.on_path = 1)";
  const MATCHES = `folded LIKE $3 AND ($4::text IS NULL OR strpos(text, $4) > 0) AND ${SHOWN}`;
  return {
    async searchCandidates(input: SearchCandidateQuery): Promise<SearchCandidate[]> {
      const { threadId, query, caseSensitive, afterKey, limit } = input;
      const values = [
        threadId,
        afterKey,
        likeContains(foldedSearchText(query)),
        caseSensitive ? query : null,
        limit,
      ];
      // A common pattern fills the batch from the next rows in thread order (the thread's
      // ordered index, no sort); the planner would rather read every match through the trigram
      // index and sort them (about 100 ms for 45,000 matches). Statements are unnamed: each is
      // planned with its own pattern. One row at least: `windowRows` says how many rows the
      // window read (a row without a key: none matched).
      const window = await ctx.rows<{ [K in keyof Row]: Row[K] | null } & { windowRows: string }>(
        "",
        `WITH next AS MATERIALIZED (
           SELECT seq, message_id, role, text, folded FROM message_search
           WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $6
         ), hit AS (
           SELECT ${COLUMNS} FROM next WHERE ${MATCHES} ORDER BY seq LIMIT $5
         )
         SELECT hit.*, w.n AS "windowRows" FROM (SELECT count(*) AS n FROM next) AS w
         LEFT JOIN hit ON true ORDER BY hit.key`,
        [...values, ORDERED_WINDOW],
      );
      let rows: Row[] = window
        .filter((row): row is Row & { windowRows: string } => row.key !== null)
        .map(({ key, messageId, role, text }) => ({ key, messageId, role, text }));
      // The window reached the thread's end: its matches are all there are (issue 33: four
      // clients searching a thread of a few long replies asked the trigram index, and rechecked
      // every reply of every thread, on every search).
      const reachedEnd = Number(window[0]?.windowRows ?? 0) < ORDERED_WINDOW;
      if (reachedEnd) return rows.map((row) => ({ ...row, key: Number(row.key) }));
      // A rarer one: the trigram index finds it wherever it is (the window is read again).
      // Materialized first, so the plan never walks the thread in order filtering every row
      // (what the planner picks without statistics, e.g. right after an import: ~50 ms).
      if (rows.length < limit) {
        rows = await ctx.rows<Row>(
          "",
          `WITH hits AS MATERIALIZED (
             SELECT thread_id, seq, message_id, role, text FROM message_search
             WHERE folded LIKE $3
           )
           SELECT ${COLUMNS} FROM hits
           WHERE thread_id = $1 AND seq > $2 AND ($4::text IS NULL OR strpos(text, $4) > 0)
             AND ${SHOWN}
           ORDER BY seq LIMIT $5`,
          values,
        );
      }
      return rows.map((row) => ({ ...row, key: Number(row.key) }));
    },
  };
}
