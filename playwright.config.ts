/**
 * End-to-end rig (see e2e/README.md): Playwright drives Debian's Chromium against the real
 * server, started by e2e/support/serve.ts with a fresh temporary DATA_DIR, the demo provider and
 * the built web app (apps/web/dist), after seeding a 2,000-turn thread.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_LAUNCH, E2E_PORT } from "./e2e/support/rig.ts";

const baseURL = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e",
  // 2-core machine: one browser at a time keeps timings and streaming stable.
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 800 },
    // Copy specs read what the app wrote with navigator.clipboard.readText().
    permissions: ["clipboard-read", "clipboard-write"],
    launchOptions: CHROMIUM_LAUNCH,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    // Plain node with the tsx loader: one process, so SIGTERM reaches serve.ts and it can
    // remove its temporary DATA_DIR.
    command: "node --import tsx e2e/support/serve.ts",
    url: `${baseURL}/api/environment`,
    env: { E2E_PORT: String(E2E_PORT) },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
