/**
 * The SQLite queries on versions and branches (issue 30, part of `repository.ts`); the schema and
 * its rules are `sqliteVersionsSchema.ts`. A branch is a handful of INSERT ... SELECT statements
 * whatever the history's length: a copy's id is the new thread's id and its seq (`copyIdOf`),
 * so every reference (turn, parent, copy link) is remapped in SQL.
 */
import type { Thread, Turn } from "@app/protocol";
import type { SyncQueries } from "./chatStore.ts";
import { type CitationIndexEntry, uniqueSourcesInOrder } from "./citationIndex.ts";
import type { SqliteDatabase } from "./db.ts";
import { TURN_COLUMNS, type TurnRow, toThreadRecord, toTurn } from "./rows.ts";
import { sqliteBacklinkResummer, sqliteCitationWriter } from "./sqliteCitations.ts";

export type SqliteVersionQueries = Pick<
  SyncQueries,
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
  /** Where a new message goes in the tree: its parent, and whether it is shown. */
  placementOf(input: { threadId: string; turnId: string; role: "user" | "assistant" }): {
    parentId: string | null;
    onPath: number;
    versionOf: string | null;
  };
  /** After inserting `newId` (unchosen, hidden) as a sibling of `oldId`: groups and shows it. */
  addVersion(oldId: string, newId: string): void;
};

/**
 * A copied message's id: the branch thread's id and the copy's seq (the source's), so SQL
 * remaps every reference without a lookup table (both stores write the same ids).
 */
export function copyIdOf(threadId: string, seq: number): string {
  return `${threadId}:${seq}`;
}

/** A copied turn's id: the branch thread's id and its prompt seq. */
export function turnCopyIdOf(threadId: string, promptSeq: number): string {
  return `${threadId}:t${promptSeq}`;
}

const SUBTREE_SHOWN = `WITH RECURSIVE sub(id) AS (
    SELECT ? UNION ALL SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id WHERE m.on_path = 1)`;
const SUBTREE_CHOSEN = `WITH RECURSIVE sub(id) AS (
    SELECT ? UNION ALL SELECT m.id FROM messages m JOIN sub ON m.parent_id = sub.id WHERE m.chosen = 1)`;

export function sqliteVersionQueries(
  db: SqliteDatabase,
  environmentId: string,
): SqliteVersionQueries {
  const s = (sql: string) => db.prepare(sql);
  const stmt = {
    node: s(
      "SELECT id, thread_id, parent_id, version_group, chosen, on_path, role, seq FROM messages WHERE id = ?",
    ),
    lastShown: s(
      "SELECT id FROM messages WHERE thread_id = ? AND on_path = 1 ORDER BY seq DESC LIMIT 1",
    ),
    lastOfTurn: s("SELECT id, on_path FROM messages WHERE turn_id = ? ORDER BY seq DESC LIMIT 1"),
    turnPlacement: s(
      `SELECT t.regenerates_id, (SELECT p.id FROM messages p WHERE p.thread_id = t.thread_id
         AND p.seq = t.prompt_seq) AS prompt_id FROM turns t WHERE t.id = ?`,
    ),
    versions: s("SELECT id FROM messages WHERE version_group = ? ORDER BY seq"),
    setGroup: s("UPDATE messages SET version_group = ? WHERE id = ?"),
    chosenSibling: s(
      "SELECT id FROM messages WHERE version_group = ? AND chosen = 1 AND id <> ? LIMIT 1",
    ),
    choose: s(
      "UPDATE messages SET chosen = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE version_group = ?",
    ),
    // The messages this environment's prompts in a shown subtree cite (their backlinks change
    // when the subtree is hidden or shown).
    citedFromShown: s(
      `${SUBTREE_SHOWN} SELECT DISTINCT c.source_message_id AS messageId,
         c.source_thread_id AS threadId
       FROM message_citations c WHERE c.citing_message_id IN (SELECT id FROM sub)
         AND c.source_environment_id = ?`,
    ),
    hide: s(`${SUBTREE_SHOWN} UPDATE messages SET on_path = 0 WHERE id IN (SELECT id FROM sub)`),
    show: s(`${SUBTREE_CHOSEN} UPDATE messages SET on_path = 1 WHERE id IN (SELECT id FROM sub)`),
    ancestors: s(
      `WITH RECURSIVE anc(id, parent_id, chosen, depth) AS (
         SELECT id, parent_id, chosen, 0 FROM messages WHERE id = ?
         UNION ALL SELECT m.id, m.parent_id, m.chosen, anc.depth + 1
         FROM messages m JOIN anc ON m.id = anc.parent_id)
       SELECT id FROM anc WHERE chosen = 0 ORDER BY depth DESC`,
    ),
    runAncestors: s(
      `WITH RECURSIVE anc(id, parent_id, role, depth) AS (
         SELECT id, parent_id, role, 0 FROM messages WHERE id = ?
         UNION ALL SELECT m.id, m.parent_id, m.role, anc.depth + 1
         FROM messages m JOIN anc ON m.id = anc.parent_id AND anc.role = 'assistant')
       SELECT id, role FROM anc ORDER BY depth`,
    ),
    insertTurn: s(
      `INSERT INTO turns (id, thread_id, prompt_seq, status, provider_input, created_at,
         source_turn_id, regenerates_id)
       VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
    ),
    bumpSeq: s(
      "UPDATE threads SET last_seq = last_seq + 1, updated_at = ? WHERE id = ? RETURNING last_seq",
    ),
    getTurn: s(`SELECT ${TURN_COLUMNS} FROM turns WHERE id = ?`),
    unfinished: s(
      `SELECT ${TURN_COLUMNS} FROM turns INDEXED BY turns_active_by_thread
       WHERE thread_id = ? AND status IN ('running', 'waiting_for_input') ORDER BY prompt_seq`,
    ),
    copyOf: s("SELECT copy_id FROM message_copies WHERE thread_id = ? AND source_id = ?"),
    // Branch copy, in order: thread, turns, messages, copy links, search rows, citations.
    sourceThread: s("SELECT title, last_seq FROM threads WHERE id = ?"),
    insertThread: s(
      `INSERT INTO threads (id, title, title_source, branch_name, created_at, updated_at,
         message_count, last_seq)
       VALUES (@thread, @title, 'custom', @branch, @now, @now,
         (SELECT count(*) FROM messages WHERE thread_id = @source AND on_path = 1 AND seq <= @until),
         @lastSeq)`,
    ),
    copyTurns: s(
      `INSERT INTO turns (id, thread_id, prompt_seq, status, error_code, error_message,
         provider_input, created_at, completed_at, source_turn_id, regenerates_id)
       SELECT @thread || ':t' || t.prompt_seq, @thread, t.prompt_seq,
         CASE WHEN t.status IN ('running', 'waiting_for_input') THEN 'cancelled' ELSE t.status END,
         t.error_code, t.error_message, t.provider_input, t.created_at,
         coalesce(t.completed_at, @now),
         (SELECT @thread || ':t' || s.prompt_seq FROM turns s WHERE s.id = t.source_turn_id),
         NULL
       FROM turns t WHERE t.id IN (SELECT DISTINCT turn_id FROM messages INDEXED BY messages_on_path
         WHERE thread_id = @source AND on_path = 1 AND seq <= @until)`,
    ),
    // The copy is one linear history: each copy's parent is the copy before it.
    copyMessages: s(
      `INSERT INTO messages (id, thread_id, turn_id, seq, role, kind, text, status, created_at,
         parent_id, version_group, chosen, on_path)
       SELECT @thread || ':' || m.seq, @thread, @thread || ':t' || t.prompt_seq, m.seq, m.role,
         m.kind, m.text, CASE WHEN m.status = 'streaming' THEN 'complete' ELSE m.status END,
         m.created_at, lag(@thread || ':' || m.seq) OVER (ORDER BY m.seq), NULL, 1, 1
       FROM messages m INDEXED BY messages_on_path JOIN turns t ON t.id = m.turn_id
       WHERE m.thread_id = @source AND m.on_path = 1 AND m.seq <= @until ORDER BY m.seq`,
    ),
    copyLinks: s(
      `INSERT INTO message_copies (thread_id, source_id, copy_id)
       SELECT @thread, m.id, @thread || ':' || m.seq FROM messages m INDEXED BY messages_on_path
       WHERE m.thread_id = @source AND m.on_path = 1 AND m.seq <= @until
       UNION ALL
       SELECT @thread, c.source_id, @thread || ':' || m.seq FROM message_copies c
       JOIN messages m ON m.id = c.copy_id
       WHERE c.thread_id = @source AND m.on_path = 1 AND m.seq <= @until`,
    ),
    // Search rows in thread order, their texts left to the background indexer
    // (`searchIndexer.ts`): trigram-indexing thousands of texts has no place in the request.
    copySearchRows: s(
      `INSERT INTO message_search (message_id, thread_id, role, text)
       SELECT @thread || ':' || m.seq, @thread, m.role, NULL FROM messages m INDEXED BY messages_on_path
       WHERE m.thread_id = @source AND m.on_path = 1 AND m.seq <= @until ORDER BY m.seq`,
    ),
    copySearchQueue: s(
      `INSERT INTO search_pending (message_id)
       SELECT @thread || ':' || m.seq FROM messages m INDEXED BY messages_on_path
       WHERE m.thread_id = @source AND m.on_path = 1 AND m.seq <= @until`,
    ),
    citationsToCopy: s(
      `SELECT m.seq AS citing_seq, t.prompt_seq AS citing_turn_seq, c.source_environment_id,
         c.source_thread_id, c.source_message_id, c.quote_start, c.quote_end, c.prefix, c.suffix, c.quote, c.comment,
         c.created_at
       FROM message_citations c JOIN messages m ON m.id = c.citing_message_id
       JOIN turns t ON t.id = m.turn_id
       WHERE c.citing_thread_id = @source AND m.on_path = 1 AND m.seq <= @until ORDER BY c.id`,
    ),
  };
  const writeCitations = sqliteCitationWriter(db);
  const resum = sqliteBacklinkResummer(db, environmentId);
  type Source = { messageId: string; threadId: string };
  const citedFromShown = (id: string) => stmt.citedFromShown.all(id, environmentId) as Source[];

  type Node = {
    id: string;
    thread_id: string;
    parent_id: string | null;
    version_group: string | null;
    chosen: number;
    on_path: number;
    role: "user" | "assistant";
    seq: number;
  };
  const node = (id: string) => stmt.node.get(id) as Node | undefined;

  const parentShown = (n: Node): boolean =>
    n.parent_id === null || node(n.parent_id)?.on_path === 1;

  const selectVersion = (messageId: string): void => {
    const n = node(messageId);
    if (!n || n.version_group === null) return;
    const previous = stmt.chosenSibling.get(n.version_group, n.id) as { id: string } | undefined;
    stmt.choose.run(n.id, n.version_group);
    if (!parentShown(n)) return;
    // Backlinks follow the path shown: the sources cited from the subtree leaving the path and
    // from the one joining it are summed again from the citing prompts shown afterwards.
    const sources = previous ? citedFromShown(previous.id) : [];
    if (previous) stmt.hide.run(previous.id);
    stmt.show.run(n.id);
    sources.push(...citedFromShown(n.id));
    for (const source of uniqueSourcesInOrder(sources)) resum(source.threadId, source.messageId);
  };

  return {
    placementOf({ threadId, turnId, role }) {
      if (role === "user") {
        const last = stmt.lastShown.get(threadId) as { id: string } | undefined;
        return { parentId: last?.id ?? null, onPath: 1, versionOf: null };
      }
      const last = stmt.lastOfTurn.get(turnId) as { id: string; on_path: number } | undefined;
      if (last) return { parentId: last.id, onPath: last.on_path, versionOf: null };
      const turn = stmt.turnPlacement.get(turnId) as
        | { regenerates_id: string | null; prompt_id: string | null }
        | undefined;
      if (turn?.regenerates_id) {
        const old = node(turn.regenerates_id);
        return { parentId: old?.parent_id ?? null, onPath: 0, versionOf: turn.regenerates_id };
      }
      const prompt = turn?.prompt_id ? node(turn.prompt_id) : undefined;
      return { parentId: prompt?.id ?? null, onPath: prompt?.on_path ?? 1, versionOf: null };
    },

    addVersion(oldId: string, newId: string): void {
      const old = node(oldId);
      if (!old) return;
      const group = old.version_group ?? old.id;
      if (old.version_group === null) stmt.setGroup.run(group, old.id);
      stmt.setGroup.run(group, newId);
      selectVersion(newId);
    },

    messageShown(messageId: string): boolean {
      return node(messageId)?.on_path === 1;
    },

    versionsOf(messageId: string): string[] {
      const n = node(messageId);
      if (!n) return [];
      if (n.version_group === null) return [n.id];
      return (stmt.versions.all(n.version_group) as { id: string }[]).map((row) => row.id);
    },

    selectVersion,

    showMessage(messageId: string): void {
      for (const row of stmt.ancestors.all(messageId) as { id: string }[]) selectVersion(row.id);
    },

    answerRunOf(messageId: string) {
      const chain = stmt.runAncestors.all(messageId) as { id: string; role: string }[];
      const prompt = chain.at(-1);
      const head = chain.at(-2);
      if (!prompt || !head || prompt.role !== "user") return null;
      return { headId: head.id, promptId: prompt.id };
    },

    insertRegenerateTurn(input): Turn {
      const { last_seq: seq } = stmt.bumpSeq.get(input.now, input.threadId) as { last_seq: number };
      stmt.insertTurn.run(
        input.turnId,
        input.threadId,
        seq,
        input.providerInput,
        input.now,
        input.sourceTurnId,
        input.regeneratesId,
      );
      return toTurn(stmt.getTurn.get(input.turnId) as TurnRow);
    },

    unfinishedTurnsOf(threadId: string): Turn[] {
      return (stmt.unfinished.all(threadId) as TurnRow[]).map(toTurn);
    },

    branchThread(input): Thread {
      const anchor = node(input.messageId)!;
      const source = stmt.sourceThread.get(input.sourceThreadId) as { last_seq: number };
      const params = {
        thread: input.threadId,
        source: input.sourceThreadId,
        until: anchor.seq,
        now: input.now,
      };
      stmt.insertThread.run({
        ...params,
        title: input.title,
        branch: input.branchName,
        lastSeq: source.last_seq,
      });
      stmt.copyTurns.run(params);
      stmt.copyMessages.run(params);
      stmt.copyLinks.run(params);
      stmt.copySearchRows.run(params);
      stmt.copySearchQueue.run(params);
      const citations = stmt.citationsToCopy.all(params) as CitationRow[];
      writeCitations(
        citations.map((row) => copiedCitation(row, input.threadId)),
        environmentId,
      );
      const row = db.prepare("SELECT * FROM threads WHERE id = ?").get(input.threadId);
      return toThreadRecord(row as Parameters<typeof toThreadRecord>[0], environmentId).thread;
    },

    copyOf(threadId: string, sourceMessageId: string): string | null {
      const row = stmt.copyOf.get(threadId, sourceMessageId) as { copy_id: string } | undefined;
      return row?.copy_id ?? null;
    },
  };
}

export type CitationRow = {
  citing_seq: number | string;
  citing_turn_seq: number | string;
  source_environment_id: string;
  source_thread_id: string;
  source_message_id: string;
  quote_start: number;
  quote_end: number;
  prefix: string;
  suffix: string;
  quote: string;
  comment: string | null;
  created_at: string;
};

/** A copied prompt's citation: the same source, cited by the copy. */
export function copiedCitation(row: CitationRow, threadId: string): CitationIndexEntry {
  return {
    citingMessageId: copyIdOf(threadId, Number(row.citing_seq)),
    citingThreadId: threadId,
    citingTurnId: turnCopyIdOf(threadId, Number(row.citing_turn_seq)),
    sourceEnvironmentId: row.source_environment_id,
    sourceThreadId: row.source_thread_id,
    sourceMessageId: row.source_message_id,
    quote: {
      text: row.quote,
      start: Number(row.quote_start),
      end: Number(row.quote_end),
      prefix: row.prefix,
      suffix: row.suffix,
    },
    comment: row.comment,
    createdAt: row.created_at,
  };
}
