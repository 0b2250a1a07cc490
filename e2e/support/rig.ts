/**
 * Shared facts of the e2e rig: the port the server listens on and the state file that
 * support/serve.ts writes for the specs (server URL, environment, seeded thread).
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Dedicated port, so a developer's server on 4310 never meets the rig. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);

/** Turns in the seeded long thread. */
export const SEEDED_TURNS = 2000;

/** Title of the seeded long thread. */
export const SEEDED_TITLE = `Seeded e2e thread (${SEEDED_TURNS} turns)`;

/**
 * How the rig launches Debian's Chromium (Playwright specs and the perf scripts alike): headless
 * as root without a sandbox, and nothing that reaches out to the closed network.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

/** Repository root (this file lives in e2e/support). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Where serve.ts writes {@link RigState} (git-ignored). Named after the port, so two rigs on
 * different ports (E2E_PORT) never share it; E2E_STATE_FILE moves it (perf scripts).
 */
export const STATE_FILE = resolve(
  process.env.E2E_STATE_FILE?.trim() || resolve(REPO_ROOT, `e2e/.state-${E2E_PORT}.json`),
);

/** What a running rig server tells the specs. */
export interface RigState {
  /** e.g. `http://127.0.0.1:4399` */
  baseURL: string;
  environmentId: string;
  dataDir: string;
  seededThreadId: string;
  /** Path of the seeded thread's page, `/<environmentId>/<threadId>`. */
  seededThreadPath: string;
  seededTurns: number;
}

/** Reads the state of the running rig server; throws a clear error when there is none. */
export function readRigState(): RigState {
  try {
    return JSON.parse(readFileSync(STATE_FILE, "utf8")) as RigState;
  } catch (error) {
    throw new Error(
      `No e2e rig state at ${STATE_FILE}: start the rig server (e2e/support/serve.ts) first. ` +
        `(${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
