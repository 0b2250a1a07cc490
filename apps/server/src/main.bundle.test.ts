/**
 * The production server (issue 13): `npm start` runs node on the esbuild bundle, and the bundle
 * serves the API like the TypeScript sources do.
 */
import { execFile, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "./testing/harness.ts";

const run = promisify(execFile);
const SERVER_DIR = resolve(import.meta.dirname, "..");

describe("production bundle", () => {
  it("builds dist/server.mjs, which npm start runs with node and which serves the API", async () => {
    const pkg = JSON.parse(await readFile(join(SERVER_DIR, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toMatch(/^node .*dist\/server\.mjs$/);
    expect(pkg.scripts.start).not.toContain("tsx");
    await run(process.execPath, ["scripts/build.mjs"], { cwd: SERVER_DIR });

    const dataDir = await makeTempDir();
    const child = spawn(process.execPath, ["dist/server.mjs"], {
      cwd: SERVER_DIR,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", AUTH_TOKEN: "", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        createInterface({ input: child.stdout! }).on("line", (line) => {
          const match = /listening on (http:\/\/\S+)/.exec(line);
          if (match) resolveUrl(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`bundle exited with ${code}`)));
      });
      const env = await fetch(`${url}/api/environment`);
      expect(env.status).toBe(200);
      expect(((await env.json()) as { provider: string }).provider).toBe("demo");
      const created = await fetch(`${url}/api/threads`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(created.status).toBe(201);
    } finally {
      const exited = new Promise<number | null>((done) => child.once("exit", done));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      await removeDir(dataDir);
    }
  });
});
