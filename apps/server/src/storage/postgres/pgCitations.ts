/**
 * The citation index in PostgreSQL (backlinks, issue 24): the one write path, used by the
 * queries (a prompt's citations) and by migration 2 (the backfill), as `../sqliteCitations.ts`
 * for SQLite. Backlink sums are updated under their row lock, taken in a fixed order, so
 * processes citing the same message at once each add their own.
 */
import type { CitedBy } from "@app/protocol";
import type pg from "pg";
import {
  addCitedBy,
  backlinkGroups,
  type CitationIndexEntry,
  type CitedByRow,
  summarizeCitedBy,
} from "../citationIndex.ts";

/** Runs one statement (a name lets a pool connection prepare it once). */
export type PgQuery = (
  name: string,
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<pg.QueryResultRow>>;

/** Inserts many citation index rows in one statement, in the order given. */
const INSERT_CITATIONS = `INSERT INTO message_citations (citing_message_id,
  citing_thread_id, citing_turn_id, source_environment_id, source_thread_id, source_message_id,
  quote_start, quote_end, prefix, suffix, quote, comment, created_at)
  SELECT a, b, c, d, e, f, g, h, i, j, k, l, m FROM unnest($1::text[], $2::text[], $3::text[],
    $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::text[], $10::text[],
    $11::text[], $12::text[], $13::text[])
    WITH ORDINALITY AS u(a, b, c, d, e, f, g, h, i, j, k, l, m, n) ORDER BY n`;

/** Writes index rows and updates the backlink sums (inside a transaction). */
export async function writeCitations(
  query: PgQuery,
  entries: readonly CitationIndexEntry[],
  environmentId: string,
): Promise<void> {
  if (entries.length === 0) return;
  await query("insertCitations", INSERT_CITATIONS, [
    entries.map((e) => e.citingMessageId),
    entries.map((e) => e.citingThreadId),
    entries.map((e) => e.citingTurnId),
    entries.map((e) => e.sourceEnvironmentId),
    entries.map((e) => e.sourceThreadId),
    entries.map((e) => e.sourceMessageId),
    entries.map((e) => e.quote.start),
    entries.map((e) => e.quote.end),
    entries.map((e) => e.quote.prefix),
    entries.map((e) => e.quote.suffix),
    entries.map((e) => e.quote.text),
    entries.map((e) => e.comment),
    entries.map((e) => e.createdAt),
  ]);
  const groups = backlinkGroups(entries, environmentId);
  if (groups.length === 0) return;
  // Creates the rows or locks the existing ones, in the groups' fixed order (so concurrent
  // writers lock in the same order), and returns what they hold: one statement, not one per
  // cited message (a branch copies dozens at once).
  const { rows } = await query(
    "lockBacklinksMany",
    `INSERT INTO message_backlinks (source_message_id, source_thread_id, citing_count, ranges)
     SELECT m, t, 0, '[]' FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(m, t, n)
     ORDER BY n
     ON CONFLICT (source_message_id, source_thread_id)
     DO UPDATE SET citing_count = message_backlinks.citing_count
     RETURNING source_message_id, source_thread_id, citing_count AS count, ranges`,
    [groups.map((g) => g.sourceMessageId), groups.map((g) => g.sourceThreadId)],
  );
  const held = new Map<string, { count: number; ranges: string }>();
  for (const row of rows as {
    source_message_id: string;
    source_thread_id: string;
    count: number;
    ranges: string;
  }[]) {
    held.set(JSON.stringify([row.source_message_id, row.source_thread_id]), row);
  }
  const next = groups.map((group) => {
    const row = held.get(JSON.stringify([group.sourceMessageId, group.sourceThreadId]))!;
    const existing: CitedBy = {
      count: row.count,
      ranges: JSON.parse(row.ranges) as CitedBy["ranges"],
    };
    return addCitedBy(existing, group.rows);
  });
  await query(
    "updateBacklinksMany",
    `UPDATE message_backlinks b SET citing_count = u.c, ranges = u.r
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS u(m, t, c, r)
     WHERE b.source_message_id = u.m AND b.source_thread_id = u.t`,
    [
      groups.map((g) => g.sourceMessageId),
      groups.map((g) => g.sourceThreadId),
      next.map((n) => n.count),
      next.map((n) => JSON.stringify(n.ranges)),
    ],
  );
}

/**
 * Sums a cited message's backlinks again, under its row lock, from the citation rows whose citing
 * message is shown (`on_path`), and stores the sum (inside a transaction), as
 * `../sqliteCitations.ts`'s resummer: after a purge, and after a version switch.
 */
export async function resumBacklinks(
  query: PgQuery,
  environmentId: string,
  threadId: string,
  messageId: string,
): Promise<CitedBy> {
  await query(
    "lockBacklinksForResum",
    `SELECT 1 FROM message_backlinks WHERE source_message_id = $1 AND source_thread_id = $2
     FOR UPDATE`,
    [messageId, threadId],
  );
  const { rows } = await query(
    "citingRowsShown",
    `SELECT c.citing_message_id AS "citingMessageId", c.quote AS text,
       c.quote_start::int AS start, c.quote_end::int AS "end", c.prefix, c.suffix
     FROM message_citations c JOIN messages m ON m.id = c.citing_message_id AND m.on_path = 1
     WHERE c.source_message_id = $1 AND c.source_thread_id = $2 AND c.source_environment_id = $3
     ORDER BY c.id`,
    [messageId, threadId, environmentId],
  );
  const citedBy =
    summarizeCitedBy(
      (rows as ({ citingMessageId: string } & CitedByRow["quote"])[]).map(
        ({ citingMessageId, text, start, end, prefix, suffix }) => ({
          sourceMessageId: messageId,
          citingMessageId,
          quote: { text, start, end, prefix, suffix },
        }),
      ),
    ).get(messageId) ?? ({ count: 0, ranges: [] } as CitedBy);
  if (citedBy.count === 0) {
    await query(
      "dropBacklinks",
      "DELETE FROM message_backlinks WHERE source_message_id = $1 AND source_thread_id = $2",
      [messageId, threadId],
    );
  } else {
    await query(
      "putBacklinks",
      `INSERT INTO message_backlinks (source_message_id, source_thread_id, citing_count, ranges)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (source_message_id, source_thread_id)
       DO UPDATE SET citing_count = excluded.citing_count, ranges = excluded.ranges`,
      [messageId, threadId, citedBy.count, JSON.stringify(citedBy.ranges)],
    );
  }
  return citedBy;
}
