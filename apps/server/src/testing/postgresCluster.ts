/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` in a temp dir and `pg_ctl`
 * on a free port with its socket in that dir, stopped and removed by {@link PostgresCluster.stop}.
 * PostgreSQL refuses to run as root, so as root the binaries run as the `postgres` system user.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const PG_ROOT = "/usr/lib/postgresql";

/** The newest installed server's bin dir, or null. */
export function findPostgresBin(): string | null {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], "bin") : null;
}

/** Why no cluster can be started here, or null when one can. */
export function postgresUnavailableReason(): string | null {
  if (findPostgresBin() === null) {
    return `no PostgreSQL server binaries under ${PG_ROOT}/*/bin (apt-get install postgresql)`;
  }
  if (process.getuid?.() === 0) {
    try {
      execFileSync("id", ["postgres"], { stdio: "ignore" });
    } catch {
      return "running as root and there is no `postgres` system user to run the server as";
    }
  }
  return null;
}

export interface PostgresCluster {
  /** Connection URL of the `postgres` database (for CREATE DATABASE). */
  adminUrl: string;
  port: number;
  /** URL of database `name` in this cluster. */
  urlOf(name: string): string;
  /** Creates database `name` unless it exists; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** The postmaster's pid (its first line of `postmaster.pid`), null when it is not running. */
  postmasterPid(): number | null;
  /** `pg_ctl restart -m fast`: every connection is ended, then the server is back. */
  restart(): Promise<void>;
  stop(): void;
  /**
   * {@link stop} without waiting: a detached process stops the server and removes its dir, and
   * may outlive this one. For the end of a test run: Vitest runs the global setups' teardown
   * before it closes its workers, and the synchronous {@link stop} of a cluster that holds a
   * database per test server (gigabytes to delete) held the run's end for about 20 s (the
   * "Timeout terminating forks worker" messages).
   */
  stopInBackground(): void;
}

/**
 * Starts a cluster (about 2-4 s on a loaded 2-core machine). With `keepIn` (benchmarks that
 * reuse seeded data between runs), the cluster lives in that dir: created there the first time,
 * started again from it later, and {@link PostgresCluster.stop} stops it without removing it.
 */
export async function startPostgresCluster(
  options: { keepIn?: string; settings?: readonly string[] } = {},
): Promise<PostgresCluster> {
  const reason = postgresUnavailableReason();
  if (reason !== null) throw new Error(`Cannot start PostgreSQL: ${reason}`);
  const bin = findPostgresBin()!;
  const keep = options.keepIn !== undefined;
  if (keep) mkdirSync(options.keepIn!, { recursive: true });
  const dir = options.keepIn ?? mkdtempSync(join(tmpdir(), "chat-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : join(bin, tool);
    const argv = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    execFileSync(command, argv, { stdio: ["ignore", "ignore", "pipe"] });
  };
  const runAsync = async (tool: string, args: string[]) => {
    const command = asRoot ? "runuser" : join(bin, tool);
    const argv = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
    await promisify(execFile)(command, argv);
  };
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const data = join(dir, "data");
  if (!existsSync(join(data, "PG_VERSION")))
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  // fsync off: a test cluster need not survive a power cut, and commits get cheaper.
  // `settings`: more `name=value` server settings (a bench loading pg_stat_statements).
  const extra = (options.settings ?? []).map((setting) => ` -c ${setting}`).join("");
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300${extra}`;
  run("pg_ctl", ["-D", data, "-w", "-l", join(dir, "log"), "-o", serverOptions, "start"]);
  const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
  const adminUrl = urlOf("postgres");
  let stopped = false;
  return {
    adminUrl,
    port,
    urlOf,
    postmasterPid() {
      try {
        const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
      } catch {
        return null;
      }
    },
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
      } catch (error) {
        // Another worker created it at the same moment.
        if ((error as { code?: string }).code !== "42P04") throw error;
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    async restart() {
      await runAsync("pg_ctl", [
        "-D",
        data,
        "-w",
        "-m",
        "fast",
        "-l",
        join(dir, "log"),
        "-o",
        serverOptions,
        "restart",
      ]);
    },
    stopInBackground() {
      if (stopped) return;
      stopped = true;
      const pgCtl = join(bin, "pg_ctl");
      const stopServer = asRoot ? 'runuser -u postgres -- "$0"' : '"$0"';
      const remove = keep ? "" : '; rm -rf "$2"';
      spawn(
        "sh",
        [
          "-c",
          `${stopServer} -D "$1" -m "$3" stop >/dev/null 2>&1${remove}`,
          pgCtl,
          data,
          dir,
          keep ? "fast" : "immediate",
        ],
        { detached: true, stdio: "ignore" },
      ).unref();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", keep ? "fast" : "immediate", "stop"]);
      } finally {
        if (!keep) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
