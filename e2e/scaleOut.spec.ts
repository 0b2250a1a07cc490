/**
 * Scale-out (DESIGN.md section 7): two server processes share one PostgreSQL database. A browser
 * on process B watches a reply that process A runs: the prompt and the streamed answer reach it
 * through the database's LISTEN/NOTIFY fan-out. Skipped, saying why, where PostgreSQL cannot be
 * started (the server-pg unit project says the same).
 */
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import {
  type PostgresCluster,
  postgresUnavailableReason,
  startPostgresCluster,
} from "../apps/server/src/testing/postgresCluster.ts";
import {
  type ServerProcess,
  startServerProcess,
} from "../apps/server/src/testing/serverProcess.ts";
import { assistantBodies, composer, DEMO_ANSWER_END, userRows } from "./support/fixtures.ts";
import { REPO_ROOT } from "./support/rig.ts";

const noPostgres = postgresUnavailableReason();
const test = base;

test.describe("two server processes on one PostgreSQL database", () => {
  test.skip(noPostgres !== null, `PostgreSQL unavailable: ${noPostgres}`);
  let cluster: PostgresCluster;
  let a: ServerProcess;
  let b: ServerProcess;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cluster = await startPostgresCluster();
    const env = {
      DATABASE_URL: await cluster.createDatabase("e2e"),
      DATA_DIR: join(REPO_ROOT, ".data-e2e-scale-out"),
      WEB_DIST: join(REPO_ROOT, "apps/web/dist"),
      DEMO_CHUNK_DELAY_MS: "20",
    };
    [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });

  test.afterAll(async () => {
    await Promise.all([a?.kill(), b?.kill()]);
    cluster?.stop();
  });

  test("a browser on one process watches a reply run by the other", async ({ page }) => {
    const post = async (server: ServerProcess, path: string, body: unknown) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(res.ok).toBe(true);
      return res.json();
    };
    const thread = (await post(a, "/api/threads", {})) as { id: string; environmentId: string };
    await page.goto(`${b.url}/${thread.environmentId}/${thread.id}`);
    await expect(composer(page)).toBeVisible();

    const prompt = "Sent to process A, watched on process B";
    await post(a, `/api/threads/${thread.id}/turns`, { input: prompt });
    await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
    // The answer grows on the page while A streams it, and ends complete.
    await expect(assistantBodies(page).last()).toContainText("demo provider");
    await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  });
});
