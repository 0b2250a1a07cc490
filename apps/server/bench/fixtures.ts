/** Shared setup of the server benchmarks: services over a real SQLite file in a temp dir. */
import { join } from "node:path";
import {
  expandAssistantCitationsForProvider,
  PROVIDER_INPUT_MAX_CHARS,
  serializeAssistantCitation,
} from "@app/citations";
import { ThreadEventLog } from "../src/domain/events.ts";
import { ProviderService } from "../src/domain/providerService.ts";
import { ThreadService } from "../src/domain/threadService.ts";
import type { ProviderAdapter } from "../src/providers/types.ts";
import { openDatabase, type SqliteDatabase } from "../src/storage/db.ts";
import { ChatRepository } from "../src/storage/repository.ts";

/** ProviderService, ThreadService and their database, wired like startServer does. */
export interface BenchServices {
  db: SqliteDatabase;
  repo: ChatRepository;
  provider: ProviderService;
  threads: ThreadService;
}

export function openServices(dataDir: string, adapter: ProviderAdapter): BenchServices {
  const db = openDatabase(join(dataDir, "chat.sqlite"));
  const repo = new ChatRepository(db);
  const events = new ThreadEventLog(repo);
  return {
    db,
    repo,
    provider: new ProviderService({ repo, events, adapter }),
    threads: new ThreadService(repo),
  };
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
