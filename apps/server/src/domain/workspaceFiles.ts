/**
 * Workspace file list for the composer's `@` typeahead. The tree under the workspace root is
 * walked once (skipping node_modules, .git, dist and hidden directories), cached for a short
 * time, and matched in memory.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";

const SKIPPED_DIRS = new Set(["node_modules", "dist", "coverage", "test-results"]);

export interface WorkspaceFileIndexOptions {
  /** Stop walking after this many files (huge trees stay responsive). */
  maxFiles?: number;
  /** How long a walked list is reused before the tree is walked again. */
  ttlMs?: number;
}

/** Cached, searchable list of workspace-relative file paths (always `/`-separated). */
export class WorkspaceFileIndex {
  readonly #root: string;
  readonly #maxFiles: number;
  readonly #ttlMs: number;
  #cache: { files: string[]; at: number } | null = null;
  #building: Promise<string[]> | null = null;

  constructor(root: string, options: WorkspaceFileIndexOptions = {}) {
    this.#root = root;
    this.#maxFiles = options.maxFiles ?? 20_000;
    this.#ttlMs = options.ttlMs ?? 30_000;
  }

  /**
   * Up to `limit` paths matching `query`, best first. Ranking, lower is better:
   * 0 file name starts with the query, 1 file name contains it, 2 path contains it,
   * 3 the query's characters appear in order in the path (subsequence). Ties: shorter path, then
   * alphabetical. Matching ignores case. An empty query lists the shortest paths.
   */
  async search(query: string, limit: number): Promise<string[]> {
    const files = await this.#files();
    const q = query.trim().toLowerCase();
    const scored: { path: string; score: number }[] = [];
    for (const path of files) {
      const score = q === "" ? 0 : rank(path.toLowerCase(), q);
      if (score !== null) scored.push({ path, score });
    }
    scored.sort(
      (a, b) => a.score - b.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1),
    );
    return scored.slice(0, limit).map((s) => s.path);
  }

  async #files(): Promise<string[]> {
    if (this.#cache && Date.now() - this.#cache.at < this.#ttlMs) return this.#cache.files;
    if (!this.#building) {
      this.#building = this.#walk().finally(() => {
        this.#building = null;
      });
    }
    const files = await this.#building;
    this.#cache = { files, at: Date.now() };
    return files;
  }

  async #walk(): Promise<string[]> {
    const files: string[] = [];
    const pending: string[] = [""];
    while (pending.length > 0 && files.length < this.#maxFiles) {
      const rel = pending.shift()!;
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(join(this.#root, rel), { withFileTypes: true });
      } catch {
        continue; // unreadable directory: skip it rather than fail the whole list
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const entry of entries) {
        const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) pending.push(path);
        } else if (entry.isFile()) {
          files.push(path);
          if (files.length >= this.#maxFiles) break;
        }
      }
    }
    return files;
  }
}

function rank(path: string, q: string): number | null {
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  if (name.startsWith(q)) return 0;
  if (name.includes(q)) return 1;
  if (path.includes(q)) return 2;
  let i = 0;
  for (const ch of path) {
    if (ch === q[i]) i++;
    if (i === q.length) return 3;
  }
  return null;
}
