import Database from "better-sqlite3";
const db = new Database("/tmp/w31prof/data/chat.sqlite", { readonly: true });
const t = (label: string, sql: string, p: any = {}) => {
  const st = db.prepare(sql);
  let rows: any[] = [];
  const times: number[] = [];
  for (let i = 0; i < 7; i++) { const s = performance.now(); rows = st.all(p); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(label, rows.length, times[3]!.toFixed(2), "ms", JSON.stringify(rows[0]).slice(0, 150));
};
const AFTER = (k: string) => `t.updated_at <= @u AND (t.updated_at < @u OR (t.updated_at = @u AND (t.id > @tid OR (t.id = @tid AND ${k} > @key))))`;
const p = { p: '"seldom said"', u: "\uffff", tid: "", key: 0, limit: 100 };
const old = `SELECT s.id AS key, s.message_id AS messageId, s.role, s.text, t.id AS threadId, t.updated_at AS threadUpdatedAt FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid JOIN threads t ON t.id = s.thread_id WHERE message_search_fts MATCH @p AND s.text IS NOT NULL AND t.deleted_at IS NULL AND t.message_count > 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) AND ${AFTER("s.id")} ORDER BY t.updated_at DESC, t.id, s.id LIMIT @limit`;
t("old", old, p);
const B = `WITH hit AS MATERIALIZED (SELECT s.id AS id, s.thread_id AS thread_id FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid WHERE message_search_fts MATCH @p),
top AS MATERIALIZED (SELECT h.id AS id, t.id AS threadId, t.updated_at AS threadUpdatedAt FROM hit h JOIN threads t ON t.id = h.thread_id WHERE t.deleted_at IS NULL AND t.message_count > 0 AND ${AFTER("h.id")} ORDER BY t.updated_at DESC, t.id, h.id LIMIT @limit)
SELECT top.id AS key, s.message_id AS messageId, s.role, CASE WHEN EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) THEN s.text END AS text, top.threadId, top.threadUpdatedAt FROM top JOIN message_search s ON s.id = top.id ORDER BY top.threadUpdatedAt DESC, top.threadId, top.id`;
t("B", B, p);
const C = `WITH hit AS MATERIALIZED (SELECT s.id AS id, s.thread_id AS thread_id FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid WHERE message_search_fts MATCH @p),
th AS MATERIALIZED (SELECT t.id AS id, t.updated_at AS updated_at FROM threads t WHERE t.id IN (SELECT thread_id FROM hit) AND t.deleted_at IS NULL AND t.message_count > 0 AND t.updated_at <= @u),
top AS MATERIALIZED (SELECT h.id AS id, t.id AS threadId, t.updated_at AS threadUpdatedAt FROM th t JOIN hit h ON h.thread_id = t.id WHERE ${AFTER("h.id")} ORDER BY t.updated_at DESC, t.id, h.id LIMIT @limit)
SELECT top.id AS key, s.message_id AS messageId, s.role, CASE WHEN EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) THEN s.text END AS text, top.threadId, top.threadUpdatedAt FROM top JOIN message_search s ON s.id = top.id ORDER BY top.threadUpdatedAt DESC, top.threadId, top.id`;
t("C", C, p);
for (const q of ['"marker3333x0"', '"cursor work"']) { t("old " + q, old, { ...p, p: q }); t("C " + q, C, { ...p, p: q }); }
console.log(db.prepare("EXPLAIN QUERY PLAN " + C).all(p).map((r: any) => r.detail).join("\n"));
const D = `WITH hit AS MATERIALIZED (SELECT s.id AS id, s.thread_id AS thread_id FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid WHERE message_search_fts MATCH @p),
th AS MATERIALIZED (SELECT t.id AS id, t.updated_at AS updated_at FROM threads t WHERE t.id IN (SELECT thread_id FROM hit) AND t.deleted_at IS NULL AND t.message_count > 0 AND t.updated_at <= @u AND (t.updated_at < @u OR t.id >= @tid) ORDER BY t.updated_at DESC, t.id LIMIT @limit + 1),
top AS MATERIALIZED (SELECT h.id AS id, t.id AS threadId, t.updated_at AS threadUpdatedAt FROM th t JOIN hit h ON h.thread_id = t.id WHERE ${AFTER("h.id")} ORDER BY t.updated_at DESC, t.id, h.id LIMIT @limit)
SELECT top.id AS key, s.message_id AS messageId, s.role, CASE WHEN EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) THEN s.text END AS text, top.threadId, top.threadUpdatedAt FROM top JOIN message_search s ON s.id = top.id ORDER BY top.threadUpdatedAt DESC, top.threadId, top.id`;
t("D", D, p);
t("C again", C, p);
t("old again", old, p);
for (const q of ['"marker3333x0"', '"cursor work"']) { t("D " + q, D, { ...p, p: q }); }
