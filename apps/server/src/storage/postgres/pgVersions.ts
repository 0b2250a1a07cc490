/**
 * The PostgreSQL queries on versions and branches (issue 30, part of `pgQueries.ts`), as
 * `../sqliteVersions.ts` for SQLite (which explains them, and the copy ids both stores write).
 * A branch is a handful of INSERT ... SELECT statements whatever the history's length.
 */
import type { Thread, Turn } from "@app/protocol";
import type { ChatQueries } from "../chatStore.ts";
import { uniqueSourcesInOrder } from "../citationIndex.ts";
import {
  THREAD_COLUMNS,
  type ThreadRow,
  TURN_COLUMNS,
  type TurnRow,
  toThreadRecord,
  toTurn,
} from "../rows.ts";
import { type CitationRow, copiedCitation } from "../sqliteVersions.ts";
import { resumBacklinks, writeCitations } from "./pgCitations.ts";
import type { PgContext } from "./pgRun.ts";

export type PgVersionQueries = Pick<
  ChatQueries,
  | "messageShown"
  | "versionsOf"
  | "selectVersion"
  | "showMessage"
  | "answerRunOf"
  | "insertRegenerateTurn"
  | "unfinishedTurnsOf"
  | "branchThread"
  | "copyOf"
> & {
  placementOf(input: { threadId: string; turnId: string; role: "user" | "assistant" }): Promise<{
    parentId: string | null;
    onPath: number;
    versionOf: string | null;
  }>;
  addVersion(oldId: string, newId: string): Promise<void>;
};

/** The source rows of a branch: the path shown of `$2` up to seq `$3`. */
const ON_PATH_UNTIL = "thread_id = $2 AND on_path = 1 AND seq <= $3";

type Node = {
  id: string;
  parent_id: string | null;
  version_group: string | null;
  chosen: number;
  on_path: number;
  seq: string | number;
};

export function pgVersionQueries(ctx: PgContext): PgVersionQueries {
  const node = async (id: string): Promise<Node | undefined> =>
    (
      await ctx.rows<Node>(
        "versionNode",
        "SELECT id, parent_id, version_group, chosen, on_path, seq FROM messages WHERE id = $1",
        [id],
      )
    )[0];

  /**
   * Sets `on_path` to `to` for `rootId` and the descendants reached through `walk = 1` (the
   * shown ones to hide, or the chosen ones to show); returns the messages their prompts cite.
   */
  const flipSubtree = (name: string, rootId: string, walk: "on_path" | "chosen", to: 0 | 1) =>
    ctx.rows<{ messageId: string; threadId: string }>(
      name,
      `WITH RECURSIVE sub(id) AS (
         SELECT $1::text COLLATE "C" UNION ALL
         SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id WHERE m.${walk} = 1),
       flipped AS (UPDATE messages SET on_path = ${to} WHERE id IN (SELECT id FROM sub) RETURNING id)
       SELECT DISTINCT c.source_message_id AS "messageId", c.source_thread_id AS "threadId"
       FROM message_citations c JOIN flipped f ON c.citing_message_id = f.id
       WHERE c.source_environment_id = $2`,
      [rootId, ctx.environmentId()],
    );

  const selectVersion = async (messageId: string): Promise<void> => {
    const n = await node(messageId);
    if (!n || n.version_group === null) return;
    const [previous] = await ctx.rows<{ id: string }>(
      "chosenSibling",
      "SELECT id FROM messages WHERE version_group = $1 AND chosen = 1 AND id <> $2 LIMIT 1",
      [n.version_group, n.id],
    );
    await ctx.run(
      "chooseVersion",
      "UPDATE messages SET chosen = CASE WHEN id = $1 THEN 1 ELSE 0 END WHERE version_group = $2",
      [n.id, n.version_group],
    );
    if (n.parent_id !== null && (await node(n.parent_id))?.on_path !== 1) return;
    // Backlinks follow the path shown: each flip returns the messages cited by this
    // environment's prompts in the subtree it hides or shows, summed again afterwards.
    const sources = previous ? await flipSubtree("hideSubtree", previous.id, "on_path", 0) : [];
    sources.push(...(await flipSubtree("showSubtree", n.id, "chosen", 1)));
    for (const source of uniqueSourcesInOrder(sources)) {
      await resumBacklinks(ctx.run, ctx.environmentId(), source.threadId, source.messageId);
    }
  };

  return {
    async placementOf({ threadId, turnId, role }) {
      if (role === "user") {
        const [last] = await ctx.rows<{ id: string }>(
          "lastShown",
          "SELECT id FROM messages WHERE thread_id = $1 AND on_path = 1 ORDER BY seq DESC LIMIT 1",
          [threadId],
        );
        return { parentId: last?.id ?? null, onPath: 1, versionOf: null };
      }
      const [last] = await ctx.rows<{ id: string; on_path: number }>(
        "lastOfTurn",
        "SELECT id, on_path FROM messages WHERE turn_id = $1 ORDER BY seq DESC LIMIT 1",
        [turnId],
      );
      if (last) return { parentId: last.id, onPath: last.on_path, versionOf: null };
      const [turn] = await ctx.rows<{ regenerates_id: string | null; prompt_id: string | null }>(
        "turnPlacement",
        `SELECT t.regenerates_id, (SELECT p.id FROM messages p WHERE p.thread_id = t.thread_id
           AND p.seq = t.prompt_seq) AS prompt_id FROM turns t WHERE t.id = $1`,
        [turnId],
      );
      if (turn?.regenerates_id) {
        const old = await node(turn.regenerates_id);
        return { parentId: old?.parent_id ?? null, onPath: 0, versionOf: turn.regenerates_id };
      }
      const prompt = turn?.prompt_id ? await node(turn.prompt_id) : undefined;
      return { parentId: prompt?.id ?? null, onPath: prompt?.on_path ?? 1, versionOf: null };
    },

    async addVersion(oldId: string, newId: string): Promise<void> {
      const old = await node(oldId);
      if (!old) return;
      const group = old.version_group ?? old.id;
      await ctx.run(
        "setVersionGroup",
        "UPDATE messages SET version_group = $1 WHERE id = $2 OR id = $3",
        [group, old.id, newId],
      );
      await selectVersion(newId);
    },

    async messageShown(messageId: string): Promise<boolean> {
      return (await node(messageId))?.on_path === 1;
    },

    async versionsOf(messageId: string): Promise<string[]> {
      const n = await node(messageId);
      if (!n) return [];
      if (n.version_group === null) return [n.id];
      const rows = await ctx.rows<{ id: string }>(
        "versionsOf",
        "SELECT id FROM messages WHERE version_group = $1 ORDER BY seq",
        [n.version_group],
      );
      return rows.map((row) => row.id);
    },

    selectVersion,

    async showMessage(messageId: string): Promise<void> {
      const rows = await ctx.rows<{ id: string }>(
        "unchosenAncestors",
        `WITH RECURSIVE anc(id, parent_id, chosen, depth) AS (
           SELECT id, parent_id, chosen, 0 FROM messages WHERE id = $1
           UNION ALL SELECT m.id, m.parent_id, m.chosen, anc.depth + 1
           FROM messages m JOIN anc ON m.id = anc.parent_id)
         SELECT id FROM anc WHERE chosen = 0 ORDER BY depth DESC`,
        [messageId],
      );
      for (const row of rows) await selectVersion(row.id);
    },

    async answerRunOf(messageId: string) {
      const chain = await ctx.rows<{ id: string; role: string }>(
        "answerRun",
        `WITH RECURSIVE anc(id, parent_id, role, depth) AS (
           SELECT id, parent_id, role, 0 FROM messages WHERE id = $1
           UNION ALL SELECT m.id, m.parent_id, m.role, anc.depth + 1
           FROM messages m JOIN anc ON m.id = anc.parent_id AND anc.role = 'assistant')
         SELECT id, role FROM anc ORDER BY depth`,
        [messageId],
      );
      const prompt = chain.at(-1);
      const head = chain.at(-2);
      if (!prompt || !head || prompt.role !== "user") return null;
      return { headId: head.id, promptId: prompt.id };
    },

    async insertRegenerateTurn(input): Promise<Turn> {
      const [turn] = await ctx.rows<TurnRow>(
        "insertRegenerateTurn",
        `WITH seq AS (
           UPDATE threads SET last_seq = last_seq + 1, updated_at = $5 WHERE id = $2
           RETURNING last_seq)
         INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at,
           source_turn_id, regenerates_id)
         SELECT $1, $2, seq.last_seq, 'running', $3, $5, $4, $6 FROM seq
         RETURNING ${TURN_COLUMNS}`,
        [
          input.turnId,
          input.threadId,
          input.providerInput,
          input.sourceTurnId,
          input.now,
          input.regeneratesId,
        ],
      );
      return toTurn(turn!);
    },

    async unfinishedTurnsOf(threadId: string): Promise<Turn[]> {
      const rows = await ctx.rows<TurnRow>(
        "unfinishedTurnsOf",
        `SELECT ${TURN_COLUMNS} FROM turns
         WHERE thread_id = $1 AND status IN ('running', 'waiting_for_input') ORDER BY prompt_seq`,
        [threadId],
      );
      return rows.map(toTurn);
    },

    async branchThread(input): Promise<Thread> {
      const anchor = (await node(input.messageId))!;
      const params = [input.threadId, input.sourceThreadId, Number(anchor.seq), input.now];
      await ctx.run(
        "", // branchThread: unnamed, planned for its own values (a generic plan scans)
        `INSERT INTO threads (id, title, title_source, branch_name, created_at, updated_at,
           message_count, last_seq)
         SELECT $1, $5, 'custom', $6, $4, $4,
           (SELECT count(*) FROM messages WHERE ${ON_PATH_UNTIL}), s.last_seq
         FROM threads s WHERE s.id = $2`,
        [...params, input.title, input.branchName],
      );
      await ctx.run(
        "", // branchTurns: unnamed, planned for its own values (a generic plan scans)
        `INSERT INTO turns (id, thread_id, prompt_seq, status, error_code, error_message,
           provider_input, created_at, completed_at, source_turn_id, regenerates_id)
         SELECT $1::text || ':t' || t.prompt_seq, $1, t.prompt_seq,
           CASE WHEN t.status IN ('running', 'waiting_for_input') THEN 'cancelled' ELSE t.status END,
           t.error_code, t.error_message, t.provider_input, t.created_at,
           coalesce(t.completed_at, $4),
           (SELECT $1::text || ':t' || s.prompt_seq FROM turns s WHERE s.id = t.source_turn_id), NULL
         FROM turns t
         WHERE t.thread_id = $2 AND t.id IN (SELECT turn_id FROM messages WHERE ${ON_PATH_UNTIL})`,
        params,
      );
      // One statement reads the path once and writes the copies, their links to what they copy
      // (and to what that copied, at any depth) and the search queue. The copy is one linear
      // history: each copy's parent is the copy before it. Search rows come from the background
      // indexer (`../searchIndexer.ts`), as on SQLite: updating the trigram index for thousands
      // of texts has no place in the request.
      await ctx.run(
        "", // branchMessages: unnamed, planned for its own values (a generic plan scans)
        `WITH source AS MATERIALIZED (
           SELECT m.id, m.seq, m.role, m.kind, m.text, m.status, m.created_at, t.prompt_seq,
             $1::text || ':' || m.seq AS copy_id
           FROM messages m JOIN turns t ON t.id = m.turn_id AND t.thread_id = $2
           WHERE m.thread_id = $2 AND m.on_path = 1 AND m.seq <= $3
         ), copies AS (
           INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status,
             created_at, parent_id, version_group, chosen, on_path)
           SELECT copy_id, $1, $1::text || ':t' || prompt_seq, seq, role, kind, text,
             CASE WHEN status = 'streaming' THEN 'complete' ELSE status END, created_at,
             lag(copy_id) OVER (ORDER BY seq), NULL, 1, 1
           FROM source
           RETURNING id
         ), links AS (
           INSERT INTO message_copies (thread_id, source_id, copy_id)
           SELECT $1, id, copy_id FROM source
           UNION ALL
           SELECT $1, c.source_id, s.copy_id FROM message_copies c
           JOIN source s ON s.id = c.copy_id
           WHERE c.thread_id = $2
         )
         INSERT INTO search_pending (message_id) SELECT id FROM copies`,
        params.slice(0, 3),
      );
      const citations = await ctx.rows<CitationRow>(
        "", // branchCitations: unnamed, planned for its own values (a generic plan scans)
        `SELECT m.seq AS citing_seq, t.prompt_seq AS citing_turn_seq, c.source_environment_id,
           c.source_thread_id, c.source_message_id, c.quote_start, c.quote_end, c.prefix,
           c.suffix, c.quote, c.comment, c.created_at
         FROM message_citations c JOIN messages m ON m.id = c.citing_message_id
         JOIN turns t ON t.id = m.turn_id
         WHERE c.citing_thread_id = $1 AND m.on_path = 1 AND m.seq <= $2 ORDER BY c.id`,
        [input.sourceThreadId, Number(anchor.seq)],
      );
      await writeCitations(
        ctx.run,
        citations.map((row) => copiedCitation(row, input.threadId)),
        ctx.environmentId(),
      );
      const [row] = await ctx.rows<ThreadRow>(
        "branchedThread",
        `SELECT ${THREAD_COLUMNS} FROM threads WHERE id = $1`,
        [input.threadId],
      );
      return toThreadRecord(row!, ctx.environmentId()).thread;
    },

    async copyOf(threadId: string, sourceMessageId: string): Promise<string | null> {
      const [row] = await ctx.rows<{ copy_id: string }>(
        "copyOf",
        "SELECT copy_id FROM message_copies WHERE thread_id = $1 AND source_id = $2",
        [threadId, sourceMessageId],
      );
      return row?.copy_id ?? null;
    },
  };
}
