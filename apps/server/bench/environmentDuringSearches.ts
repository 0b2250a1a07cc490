/**
 * `GET /api/environment` while 4 clients send worst-case searches (issue 29): a thread with 10
 * prompts of 120,000 × "x", and queries of 200 × "x", on the server as a process of its own
 * (`src/main.ts`). This process sends one environment request at a time for `seconds` and
 * prints p50/p99/max and how many searches were answered meanwhile.
 *
 *   pnpm --filter @app/server exec tsx bench/environmentDuringSearches.ts [seconds]
 *
 * With DATABASE_URL set the server uses that PostgreSQL database.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { requestJson, startServerProcess } from "../src/testing/serverProcess.ts";
import { percentile } from "./support/percentile.ts";

const SECONDS = Number(process.argv[2] ?? 10);
const dataDir = await mkdtemp(join(tmpdir(), "chat-search-bench-"));
const server = await startServerProcess({
  DATA_DIR: dataDir,
  WEB_DIST: join(dataDir, "none"),
  DEMO_CHUNK_DELAY_MS: "0",
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
});
try {
  const thread = await requestJson<{ id: string }>(server, "/api/threads", {});
  for (let i = 0; i < 10; i++) {
    await requestJson(server, `/api/threads/${thread.id}/turns`, { input: "x".repeat(120_000) });
  }
  const url = `${server.url}/api/threads/${thread.id}/search?q=${"x".repeat(200)}&limit=1000`;
  // Indexed in the background: wait until the search finds them.
  for (;;) {
    const page = (await (await fetch(url)).json()) as { matches: unknown[] };
    if (page.matches.length > 0) break;
  }
  let running = true;
  let searches = 0;
  const clients = Array.from({ length: 4 }, async () => {
    while (running) {
      await (await fetch(url)).arrayBuffer();
      searches++;
    }
  });
  const times: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    await (await fetch(`${server.url}/api/environment`)).arrayBuffer();
    times.push(performance.now() - start);
  }
  running = false;
  await Promise.all(clients);
  const ms = (v: number) => v.toFixed(1);
  console.log(
    `${process.env.DATABASE_URL ? "postgres" : "sqlite"}: ${times.length} environment requests ` +
      `p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms, ` +
      `max ${ms(Math.max(...times))} ms; ${searches} worst-case searches answered meanwhile`,
  );
} finally {
  await server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
