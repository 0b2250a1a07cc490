/**
 * The citation index in PostgreSQL (backlinks, issue 24): the one write path, used by the
 * queries (a prompt's citations) and by migration 2 (the backfill), as `../sqliteCitations.ts`
 * for SQLite. Backlink sums are updated under their row lock, taken in a fixed order, so
 * processes citing the same message at once each add their own.
 */
import type { CitedBy } from "@app/protocol";
import type pg from "pg";
import { addCitedBy, backlinkGroups, type CitationIndexEntry } from "../citationIndex.ts";

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
  for (const group of backlinkGroups(entries, environmentId)) {
    // Creates the row or locks the existing one, and returns what it holds.
    const { rows } = await query(
      "lockBacklinks",
      `INSERT INTO message_backlinks (source_message_id, source_thread_id, citing_count, ranges)
       VALUES ($1, $2, 0, '[]')
       ON CONFLICT (source_message_id, source_thread_id)
       DO UPDATE SET citing_count = message_backlinks.citing_count
       RETURNING citing_count AS count, ranges`,
      [group.sourceMessageId, group.sourceThreadId],
    );
    const row = rows[0] as { count: number; ranges: string };
    const existing: CitedBy = {
      count: row.count,
      ranges: JSON.parse(row.ranges) as CitedBy["ranges"],
    };
    const next = addCitedBy(existing, group.rows);
    await query(
      "updateBacklinks",
      `UPDATE message_backlinks SET citing_count = $3, ranges = $4
       WHERE source_message_id = $1 AND source_thread_id = $2`,
      [group.sourceMessageId, group.sourceThreadId, next.count, JSON.stringify(next.ranges)],
    );
  }
}
