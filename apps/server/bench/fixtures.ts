/**
 * Shared setup of the server benchmarks: services over a real SQLite file in a temp dir, or,
 * with BENCH_STORE=postgres, over a database of a throwaway PostgreSQL cluster.
 */
import {
  expandAssistantCitationsForProvider,
  PROVIDER_INPUT_MAX_CHARS,
  serializeAssistantCitation,
} from "@app/citations";
import { ThreadEventLog } from "../src/domain/events.ts";
import { ProviderService } from "../src/domain/providerService.ts";
import { ThreadService } from "../src/domain/threadService.ts";
import type { ProviderAdapter } from "../src/providers/types.ts";
import type { ChatStore } from "../src/storage/chatStore.ts";
import { openStore } from "../src/storage/openStore.ts";
import { startPostgresCluster } from "../src/testing/postgresCluster.ts";

/** ProviderService, ThreadService and their store, wired like startServer does. */
export interface BenchServices {
  store: ChatStore;
  provider: ProviderService;
  threads: ThreadService;
}

const cluster = process.env.BENCH_STORE === "postgres" ? await startPostgresCluster() : null;

/** The PostgreSQL database of this benchmark file (null: SQLite). */
export const benchDatabaseUrl = cluster ? await cluster.createDatabase("bench") : null;

/** Stops the cluster, if any (call in afterAll). */
export function stopBenchDatabase(): void {
  cluster?.stop();
}

export async function openServices(
  dataDir: string,
  adapter: ProviderAdapter,
): Promise<BenchServices> {
  const store = await openStore({ databaseUrl: benchDatabaseUrl, pgPoolSize: 10, dataDir });
  const events = new ThreadEventLog(store);
  const provider = new ProviderService({ store, events, adapter });
  await provider.ready();
  return { store, provider, threads: new ThreadService(store) };
}

/** An adapter that returns at once: what is left to measure is the server's own work. */
export const noopAdapter: ProviderAdapter = { name: "noop", runTurn: async () => {} };

/**
 * A prompt of 50 distinct citations (each a 1,000-character quote with a comment) padded with
 * prose so that the larger of its raw and expanded lengths is exactly 120,000 characters.
 */
export function maximalPromptWith50Citations(): string {
  const links: string[] = [];
  for (let i = 0; i < 50; i++) {
    const text = `Quote ${i}: ${"lorem ipsum dolor sit amet ".repeat(40)}`.slice(0, 1000);
    links.push(
      serializeAssistantCitation({
        version: 1,
        environmentId: "bench-env",
        threadId: "bench-thread",
        messageId: `message-${i}`,
        text,
        start: i * 1000,
        end: i * 1000 + text.length,
        prefix: "before ",
        suffix: " after",
        comment: `Comment ${i} <b>& more</b>`,
      }),
    );
  }
  const body = links.map((link, i) => `Point ${i}: ${link}`).join("\n");
  const measure = (padding: number) => {
    const prompt = `${"x".repeat(padding)}\n${body}`;
    return Math.max(prompt.length, expandAssistantCitationsForProvider(prompt).length);
  };
  const padding = PROVIDER_INPUT_MAX_CHARS - measure(0);
  if (padding < 0) throw new Error("fixture too large");
  const prompt = `${"x".repeat(padding)}\n${body}`;
  if (measure(padding) !== PROVIDER_INPUT_MAX_CHARS) throw new Error("fixture is not maximal");
  return prompt;
}
