/**
 * The server as a real process (the bundle the test run built, what `npm start` runs, or else
 * `node --import tsx src/main.ts`), for tests and benchmarks with several processes on one
 * database. {@link ServerProcess.kill} can
 * end it with SIGKILL, as a crash would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { nodeEntryArgs } from "./nodeEntry.ts";

const SERVER_DIR = resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (for failure messages). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a server process with `env` (PORT defaults to 0) and waits until it listens. */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  // SERVER_NODE_ARGS: extra Node flags for every server process (e.g. `--cpu-prof` in a bench).
  const nodeArgs = (process.env.SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // The server bundled for the test run (`testBundles.ts`, what `npm start` runs), else the
  // sources through tsx.
  const child = spawn(process.execPath, [...nodeArgs, ...nodeEntryArgs("server")], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: "0",
      AUTH_TOKEN: "",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  return new Promise((resolveStart, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        child.stdout?.off("data", onData);
        child.stdout?.on("data", (more: Buffer) => {
          output += more.toString();
        });
        resolveStart({
          url: match[1]!,
          child,
          output: () => output,
          kill: async (signal = "SIGTERM") => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code) =>
      reject(new Error(`server exited (${code}) before listening:\n${output}`)),
    );
  });
}

/** GET `path` (or POST `body` as JSON) on a server process; throws on a non-2xx answer. */
export async function requestJson<T>(
  server: ServerProcess,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path} -> ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
