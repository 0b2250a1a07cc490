import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import type { MessagePage, Thread } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { seededMessageCount } from "./seed.ts";
import { makeTempDir, RecordingAdapter, removeDir, startTestServer } from "./testing/harness.ts";
import { nodeEntryArgs } from "./testing/nodeEntry.ts";

const run = promisify(execFile);
const SERVER_DIR = resolve(import.meta.dirname, "..");

/**
 * Runs the seed command with the arguments the README's `pnpm --filter @app/server seed -- ...`
 * hands it (with `--`): its bundle, or its source through tsx where the run built none.
 */
function seed(args: string[]) {
  return run(process.execPath, [...nodeEntryArgs("seed"), "--", ...args], {
    cwd: SERVER_DIR,
    env: { ...process.env, HOST: "127.0.0.1", AUTH_TOKEN: "" },
  });
}

describe("seed command", () => {
  it("creates the long thread in --data-dir, which the server then serves", async () => {
    const dataDir = await makeTempDir();
    try {
      const { stdout } = await seed(["--thread-turns", "50", "--data-dir", dataDir]);
      expect(stdout).toContain(`Seeded ${seededMessageCount(50)} messages (50 turns)`);
      const server = await startTestServer({ adapter: new RecordingAdapter(), dataDir });
      try {
        const { threads } = await server.getJson<{ threads: Thread[] }>("/api/threads");
        expect(threads).toHaveLength(1);
        const thread = threads[0] as Thread;
        expect(thread.messageCount).toBe(seededMessageCount(50));
        expect(stdout).toContain(`/${server.environmentId}/${thread.id}`);
        const page = await server.getJson<MessagePage>(
          `/api/threads/${thread.id}/messages?limit=200`,
        );
        expect(page.messages).toHaveLength(seededMessageCount(50));
        expect(page.nextCursor).toBeNull();
      } finally {
        await server.close();
      }
    } finally {
      await removeDir(dataDir);
    }
  });

  it("rejects a bad option or count with a clear message and exit code 1", async () => {
    const dataDir = await makeTempDir();
    try {
      await expect(seed(["--thread-turns", "many", "--data-dir", dataDir])).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining('--thread-turns must be a positive integer (got "many")'),
      });
      await expect(seed(["--turns", "5"])).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining("Unknown option --turns"),
      });
    } finally {
      await removeDir(dataDir);
    }
  });
});
