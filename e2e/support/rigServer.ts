/**
 * Starts the real chat server the way the e2e rig and the performance scripts need it: a fresh
 * temporary DATA_DIR seeded with one long thread, a small fixture workspace for the `@`
 * typeahead, the demo provider streaming with a short chunk delay, and a copy of the built web
 * app. The seed can be made once ({@link seedTemplate}) and copied into each server's DATA_DIR
 * (the e2e workers do so), rather than seeded again for every server.
 */
import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { startServer } from "../../apps/server/src/main.ts";
import { createDemoProvider } from "../../apps/server/src/providers/index.ts";
import { seedDemoThread } from "../../apps/server/src/seed.ts";
import { openStore } from "../../apps/server/src/storage/openStore.ts";
import {
  REPO_ROOT,
  type RigServer,
  type RigServerOptions,
  type RigState,
  SEEDED_TITLE,
  SEEDED_TURNS,
  type SeedTemplate,
} from "./rig.ts";

/** The built web app the server serves (WEB_DIST overrides it, as for the server itself). */
export const WEB_DIST = resolve(
  process.env.WEB_DIST?.trim() || resolve(REPO_ROOT, "apps/web/dist"),
);

/** Files of the fixture workspace listed by `GET /api/files` (the `@` typeahead). */
export const FIXTURE_FILES = [
  "README.md",
  "src/components/Button.tsx",
  "src/components/Timeline.tsx",
  "src/server/routes.ts",
  "docs/guide.md",
] as const;

/**
 * Pause between the demo's 24-character chunks: a reply takes about a second, so even on a busy
 * machine the browser renders it in several steps rather than in one burst.
 */
export const DEFAULT_CHUNK_DELAY_MS = 30;

/** The SQLite file a DATA_DIR holds (apps/server/src/storage/openStore.ts). */
const DATABASE_FILE = "chat.sqlite";

/** Seeds the long thread into `dir` (created if missing) and closes the store. */
export async function seedTemplate(
  dir: string,
  turns: number = SEEDED_TURNS,
): Promise<SeedTemplate> {
  await mkdir(dir, { recursive: true });
  const store = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir: dir });
  try {
    const seededThreadId = await seedDemoThread(store, { turns, title: SEEDED_TITLE });
    return { dir, seededThreadId, seededTurns: turns };
  } finally {
    await store.close();
  }
}

/** Fails with a message a person can act on when the web app has not been built. */
export function assertWebBuilt(): void {
  if (!existsSync(join(WEB_DIST, "index.html"))) {
    throw new Error(
      `The web app is not built: ${join(WEB_DIST, "index.html")} is missing. ` +
        "Run `pnpm --filter @app/web build` (or `pnpm run build`) before the e2e tests.",
    );
  }
}

/** Seeds, then starts the server (see module doc). */
export async function startRigServer(options: RigServerOptions): Promise<RigServer> {
  assertWebBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), "chat-e2e-"));
  try {
    const workspaceDir = join(dataDir, "workspace");
    for (const file of FIXTURE_FILES) {
      const path = join(workspaceDir, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `// fixture ${file}\n`);
    }

    // Serve a private copy: a concurrent `vite build` (which empties dist first) cannot break
    // a running suite. Timestamps are kept: the server ignores a precompressed variant older
    // than its file, and a plain copy would date each file by its place in the copy order.
    const webDist = join(dataDir, "web");
    await cp(WEB_DIST, webDist, { recursive: true, preserveTimestamps: true });

    let seed: SeedTemplate;
    if (options.template) {
      await copyFile(join(options.template.dir, DATABASE_FILE), join(dataDir, DATABASE_FILE));
      seed = { ...options.template, dir: dataDir };
    } else {
      seed = await seedTemplate(dataDir, options.seedTurns);
    }

    const server = await startServer({
      env: {},
      host: "127.0.0.1",
      port: options.port,
      dataDir,
      webDist,
      workspaceDir,
      authToken: null,
      // Failed turns and errors only: a line per request would drown the test output.
      logLevel: "warn",
      adapter: createDemoProvider({ chunkDelayMs: options.chunkDelayMs ?? DEFAULT_CHUNK_DELAY_MS }),
    });
    const state: RigState = {
      baseURL: server.url,
      environmentId: server.environmentId,
      dataDir,
      seededThreadId: seed.seededThreadId,
      seededThreadPath: `/${server.environmentId}/${seed.seededThreadId}`,
      seededTurns: seed.seededTurns,
    };
    return {
      state,
      close: async () => {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
