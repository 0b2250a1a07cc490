/**
 * Database faults under load (issue 29): two real server processes on a cluster of their own,
 * 20 clients sending prompts, while every backend is ended with pg_terminate_backend (twice) and
 * the cluster is restarted with `pg_ctl restart -m fast`. No process may exit, every prompt that
 * was acknowledged (201) must be stored once, and every turn must end (completed, or failed once
 * that could be recorded); requests during the faults answer 503 `storage_unavailable` at worst.
 */
import type { MessagePage, Thread, ThreadDetail } from "@app/protocol";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeDir, waitFor } from "../../testing/harness.ts";
import { type PostgresCluster, startPostgresCluster } from "../../testing/postgresCluster.ts";
import {
  requestJson,
  type ServerProcess,
  startServerProcess,
} from "../../testing/serverProcess.ts";

const CLIENTS = 20;
let cluster: PostgresCluster;
let dataDir: string;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const url = await cluster.createDatabase("faults");
  dataDir = await makeTempDir("chat-pg-faults-");
  const env = {
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    WEB_DIST: `${dataDir}/no-web-dist`,
    DEMO_CHUNK_DELAY_MS: "1",
    TURN_LEASE_MS: "3000",
    PG_POOL_SIZE: "6",
  };
  servers = [await startServerProcess(env), await startServerProcess(env)];
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill()));
  cluster?.stop();
  if (dataDir) await removeDir(dataDir);
});

async function terminateAll(): Promise<number> {
  const admin = new pg.Client({ connectionString: cluster.urlOf("faults") });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/** Rejects when a server process exits (with its output). */
function anExit(): Promise<never> {
  return new Promise((_, reject) => {
    for (const server of servers) {
      const exited = () => reject(new Error(`a server exited:\n${server.output()}`));
      if (server.child.exitCode !== null || server.child.signalCode !== null) exited();
      else server.child.once("exit", exited);
    }
  });
}

type Load = {
  acknowledged: Map<string, string[]>;
  statuses: Map<number, number>;
  errors: string[];
  stop(): Promise<void>;
  /** Resolves once `n` more prompts were acknowledged. */
  progress(n: number): Promise<void>;
};

/** CLIENTS clients, each on its own thread and alternating servers, sending prompts in a loop. */
function startLoad(threads: Thread[]): Load {
  const acknowledged = new Map<string, string[]>(threads.map((t) => [t.id, []]));
  const statuses = new Map<number, number>();
  const errors: string[] = [];
  let running = true;
  let count = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  const clients = threads.map(async (thread, c) => {
    for (let i = 0; running; i++) {
      const server = servers[(c + i) % servers.length]!;
      const input = `client ${c} prompt ${i}`;
      let status: number;
      let body: string;
      try {
        const res = await fetch(`${server.url}/api/threads/${thread.id}/turns`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ input }),
        });
        status = res.status;
        body = await res.text();
      } catch (error) {
        errors.push(`client ${c}: ${String(error)}`);
        if (errors.length > 100) running = false;
        continue;
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 201) {
        acknowledged.get(thread.id)!.push(input);
        count++;
        for (const w of waiting.splice(0)) {
          if (count >= w.at) w.resolve();
          else waiting.push(w);
        }
      } else if (status !== 503 || !body.includes('"storage_unavailable"')) {
        errors.push(`client ${c}: ${status} ${body.slice(0, 200)}`);
      }
    }
  });
  return {
    acknowledged,
    statuses,
    errors,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
    progress(n) {
      const more = new Promise<void>((resolve) => waiting.push({ at: count + n, resolve }));
      return Promise.race([more, anExit()]);
    },
  };
}

describe("PostgreSQL faults under load", () => {
  it("survives terminated backends and a fast restart: no exit, no acknowledged prompt lost", async () => {
    const threads: Thread[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      threads.push(await requestJson<Thread>(servers[i % 2]!, "/api/threads", {}));
    }
    const load = startLoad(threads);
    await load.progress(40);
    expect(await terminateAll()).toBeGreaterThan(2);
    await load.progress(40);
    expect(await terminateAll()).toBeGreaterThan(2);
    await load.progress(40);
    await cluster.restart();
    await load.progress(40);
    await load.stop();

    for (const server of servers) {
      expect(server.child.exitCode, server.output()).toBeNull();
      expect(server.child.signalCode, server.output()).toBeNull();
    }
    expect(load.errors).toEqual([]);

    // Every turn ends, on whichever process, and every acknowledged prompt is stored once.
    for (const thread of threads) {
      await waitFor(async () => {
        const detail = await requestJson<ThreadDetail>(servers[0]!, `/api/threads/${thread.id}`);
        return detail.activeTurn === null ? true : undefined;
      }, 60_000);
      const page = await requestJson<MessagePage>(
        servers[1]!,
        `/api/threads/${thread.id}/messages?limit=1000`,
      );
      const prompts = page.messages.filter((m) => m.role === "user").map((m) => m.text);
      expect(prompts.sort()).toEqual([...load.acknowledged.get(thread.id)!].sort());
      for (const message of page.messages) expect(message.status).not.toBe("streaming");
    }
    for (const server of servers) {
      expect(server.child.exitCode, server.output()).toBeNull();
    }
    const acknowledged = [...load.acknowledged.values()].reduce((n, list) => n + list.length, 0);
    const statuses = [...load.statuses].sort(([x], [y]) => x - y);
    console.log(
      `database faults: 2 terminations of every backend and a fast restart under ${CLIENTS} clients; ` +
        `0 process exits; ${acknowledged} prompts acknowledged, 0 lost; POST statuses ${statuses
          .map(([s, n]) => `${s}: ${n}`)
          .join(", ")}`,
    );
  }, 180_000);
});
