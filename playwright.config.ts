/**
 * End-to-end rig (see e2e/README.md): Playwright drives Debian's Chromium against the real
 * server. e2e/support/globalSetup.ts seeds a 2,000-turn thread once; each worker then starts its
 * own server (e2e/support/fixtures.ts `rig`, on a free port) with a fresh temporary DATA_DIR
 * holding a copy of that seed, the demo provider and the built web app (apps/web/dist), and
 * `baseURL` points at it.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_LAUNCH } from "./e2e/support/rig.ts";

/**
 * Workers (E2E_WORKERS overrides): each has its own server and data, so they never share
 * state. Much of a test is waiting on streamed replies and animation frames, so two workers
 * fit a 2-core machine.
 */
const workers = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e",
  globalSetup: "./e2e/support/globalSetup.ts",
  workers,
  // A file's tests run in order, in one worker.
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    // baseURL: the worker's own rig server (e2e/support/fixtures.ts).
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    // Copy specs read what the app wrote with navigator.clipboard.readText().
    permissions: ["clipboard-read", "clipboard-write"],
    launchOptions: CHROMIUM_LAUNCH,
    screenshot: "only-on-failure",
    // A trace is recorded for every test and kept for a failed one. Without its screencast
    // (a JPEG of every frame the page paints, taken whether or not the trace is kept) the
    // suite spends about a quarter less CPU; the trace keeps its DOM snapshots per action,
    // which the trace viewer shows, and the failure screenshot stays.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: true },
  },
});
