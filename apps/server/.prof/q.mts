import Database from "better-sqlite3";
const db = new Database("/tmp/w31prof/data/chat.sqlite", { readonly: true });
const t = (label: string, sql: string, p: any = {}) => {
  const st = db.prepare(sql);
  let rows: any[] = [];
  const times: number[] = [];
  for (let i = 0; i < 7; i++) { const s = performance.now(); rows = st.all(p); times.push(performance.now() - s); }
  times.sort((a, b) => a - b);
  console.log(label, rows.length, times[3]!.toFixed(2), "ms");
};
const phrase = '"seldom said"';
t("fts rowids", "SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH ?".replace("?", "@p"), { p: phrase });
t("fts + thread_id", "SELECT s.thread_id FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid WHERE message_search_fts MATCH @p", { p: phrase });
t("fts distinct threads", "SELECT DISTINCT s.thread_id FROM message_search_fts f CROSS JOIN message_search s ON s.id = f.rowid WHERE message_search_fts MATCH @p", { p: phrase });
t("fts shared notes rowids", "SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH @p", { p: '"shared notes"' });
t("fts sel", "SELECT rowid FROM message_search_fts WHERE message_search_fts MATCH @p", { p: '"sel"' });
t("window 1000", `SELECT s.id, s.text FROM threads t INDEXED BY threads_listed JOIN message_search s ON s.thread_id = t.id WHERE t.deleted_at IS NULL AND t.message_count > 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) ORDER BY t.updated_at DESC, t.id, s.id LIMIT 1000`);
t("window 10000", `SELECT s.id, s.text FROM threads t INDEXED BY threads_listed JOIN message_search s ON s.thread_id = t.id WHERE t.deleted_at IS NULL AND t.message_count > 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.id = s.message_id AND m.on_path = 1) ORDER BY t.updated_at DESC, t.id, s.id LIMIT 10000`);
