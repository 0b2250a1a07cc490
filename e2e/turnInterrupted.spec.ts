/**
 * Issue 21 item 4 (DESIGN.md section 6): a reply cut off by a server crash shows a visible
 * "Interrupted" marker and `data-turn-outcome="interrupted"`, live and after a reload. A server
 * of its own (a real process on a private SQLite DATA_DIR) is killed with SIGKILL mid-stream and
 * started again on the same port and data: the next start ends the running turn `failed`
 * (interrupted), and the open page's event stream reconnects and hears it. "Stopped" and
 * "Failed" are covered in newThread.spec.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base, expect } from "@playwright/test";
import {
  type ServerProcess,
  startServerProcess,
} from "../apps/server/src/testing/serverProcess.ts";
import { sendPrompt, THREAD_PATH } from "./support/fixtures.ts";
import { REPO_ROOT } from "./support/rig.ts";

const test = base;

test.describe("a reply cut off by a server crash", () => {
  let dataDir: string;
  const running: ServerProcess[] = [];

  test.beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "chat-e2e-interrupted-"));
  });

  test.afterAll(async () => {
    await Promise.all(running.map((server) => server.kill("SIGKILL")));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(port: string): Promise<ServerProcess> {
    const server = await startServerProcess({
      PORT: port,
      DATA_DIR: dataDir,
      WEB_DIST: join(REPO_ROOT, "apps/web/dist"),
      // Slow chunks: the reply is still streaming when the process dies, whatever the load.
      DEMO_CHUNK_DELAY_MS: "150",
    });
    running.push(server);
    return server;
  }

  test("shows Interrupted with data-turn-outcome, live and after a reload", async ({ page }) => {
    test.setTimeout(90_000);
    const first = await start("0");
    const port = new URL(first.url).port;
    await page.goto(`${first.url}/`);
    await sendPrompt(page, "Crash midway: write a long reply please");
    await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
    const answer = page.locator(
      '[data-role="assistant"][data-kind="answer"] [data-assistant-citation-source]',
    );
    await expect(answer).toContainText("Part 2");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();

    // A crash: no shutdown path runs, the turn stays "running" in the database.
    await first.kill("SIGKILL");
    await start(port);

    const reply = page.locator('[data-role="assistant"][data-turn-outcome]');
    await expect(reply).toHaveCount(1, { timeout: 30_000 });
    await expect(reply).toHaveAttribute("data-turn-outcome", "interrupted");
    await expect(reply.getByText("Interrupted", { exact: true })).toBeVisible();
    // The reason is shown once, in the marker or in the turn's error notice.
    await expect(page.getByText(/The server stopped before this turn finished/)).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
    // The partial reply stays (what the server had stored), and the marker is not part of its
    // text (copy, citations).
    await expect(answer).toContainText("Part 1");
    await expect(answer).not.toContainText("Interrupted");

    // After a reload too: the outcome comes from the server's turn status.
    await page.reload();
    const reloaded = page.locator('[data-role="assistant"][data-turn-outcome]');
    await expect(reloaded).toHaveAttribute("data-turn-outcome", "interrupted");
    await expect(reloaded.getByText("Interrupted", { exact: true })).toBeVisible();
  });
});
