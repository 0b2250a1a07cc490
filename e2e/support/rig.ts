/**
 * Shared facts of the e2e rig: what a rig server tells the specs ({@link RigState}), the seeded
 * thread, how Chromium is launched, and, for support/serve.ts (the perf scripts' server), its
 * port and state file.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Port of support/serve.ts (the perf scripts' rig server; the e2e workers pick free ports), so a
 * developer's server on 4310 never meets it.
 */
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

/** What a running rig server tells the specs (the `rig` fixture) and the perf scripts. */
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

/** A seeded database made once (rigServer.ts `seedTemplate`), copied into each rig's DATA_DIR. */
export interface SeedTemplate {
  /** Directory holding the seeded `chat.sqlite` (closed, so the file is complete). */
  dir: string;
  seededThreadId: string;
  seededTurns: number;
}

/** Options of rigServer.ts `startRigServer`. */
export interface RigServerOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Pause between streamed demo chunks (ms). Small but non-zero, so streaming is observable. */
  chunkDelayMs?: number;
  /** Turns of the seeded thread (default {@link SEEDED_TURNS}). */
  seedTurns?: number;
  /** Copy this seed instead of seeding (then `seedTurns` is ignored). */
  template?: SeedTemplate;
}

/** A running rig server; `close()` stops it and removes its temporary DATA_DIR. */
export interface RigServer {
  state: RigState;
  close(): Promise<void>;
}
