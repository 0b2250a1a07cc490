/**
 * Clear startup errors (issue 12): the server run as a process says what is wrong and exits 1,
 * without a stack trace, when its port is taken or its data dir cannot hold the database.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { StartupError } from "./main.ts";
import { makeTempDir, RecordingAdapter, removeDir, startTestServer } from "./testing/harness.ts";
import { nodeEntryArgs } from "./testing/nodeEntry.ts";

const run = promisify(execFile);
const SERVER_DIR = resolve(import.meta.dirname, "..");

/**
 * Runs the server as `npm start` does (`node` on its bundle; the sources through tsx where the
 * run built none), and returns how it ended.
 */
async function startProcess(env: Record<string, string>) {
  try {
    await run(process.execPath, nodeEntryArgs("server"), {
      cwd: SERVER_DIR,
      env: { ...process.env, HOST: "127.0.0.1", AUTH_TOKEN: "", ...env },
      timeout: 15_000,
    });
    return { code: 0, stderr: "" };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe("startup errors", () => {
  it("reports a port in use in one line and exits 1", async () => {
    const taken = await startTestServer({ adapter: new RecordingAdapter() });
    try {
      await expect(
        startTestServer({ adapter: new RecordingAdapter(), port: taken.port }),
      ).rejects.toThrow(StartupError);
      const result = await startProcess({ PORT: String(taken.port), DATA_DIR: taken.dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Port ${taken.port} on 127.0.0.1 is already in use`);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await taken.close();
      await removeDir(taken.dataDir);
    }
  });

  it("reports a data dir that cannot hold the database and exits 1", async () => {
    const dir = await makeTempDir();
    try {
      // DATA_DIR names a file: no database can be created under it.
      const notADir = join(dir, "file");
      await writeFile(notADir, "x");
      const result = await startProcess({ PORT: "0", DATA_DIR: notADir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Cannot open the database in DATA_DIR=${notADir}`);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await removeDir(dir);
    }
  });
});
