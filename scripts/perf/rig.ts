/**
 * Starts the e2e rig server (e2e/support/serve.ts: real server, temporary seeded DATA_DIR, demo
 * provider, built web app) as a child process on its own port and state file, and launches
 * Debian's Chromium the way playwright.config.ts does.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium } from "@playwright/test";
import { CHROMIUM_LAUNCH, REPO_ROOT, type RigState } from "../../e2e/support/rig.ts";

/** A running rig server for a perf run. */
export interface PerfServer {
  state: RigState;
  stop(): Promise<void>;
}

/** Spawns serve.ts and resolves once it answers `GET /api/environment`. */
export async function startPerfServer(port: number): Promise<PerfServer> {
  const dir = mkdtempSync(join(tmpdir(), "chat-perf-"));
  const stateFile = join(dir, "state.json");
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "e2e/support/serve.ts"], {
    cwd: REPO_ROOT,
    env: { ...process.env, E2E_PORT: String(port), E2E_STATE_FILE: stateFile },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The rig server exited with code ${child.exitCode} (see its output above).`);
    }
    try {
      const state = JSON.parse(readFileSync(stateFile, "utf8")) as RigState;
      const res = await fetch(`${state.baseURL}/api/environment`);
      if (res.ok) return { state, stop };
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error("The rig server did not start within 60 s.");
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Chromium with the rig's flags (see playwright.config.ts). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ headless: true, ...CHROMIUM_LAUNCH });
}

/**
 * A fresh context (empty cache and storage) for one measurement. tsx compiles these scripts with
 * esbuild's keepNames, which wraps named inner functions of page callbacks in `__name(...)`; the
 * page has no such helper, so an identity one is installed first.
 */
export async function newPerfContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript("globalThis.__name = (fn) => fn;");
  return context;
}
