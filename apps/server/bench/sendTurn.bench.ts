/**
 * ProviderService.sendTurn overhead without a provider: trim, validate raw and expanded input,
 * expand citations once, store prompt + turn + events in one transaction. The adapter returns
 * at once, so the figure also includes marking the turn completed.
 */
import { afterAll, bench, describe } from "vitest";
import { makeTempDir, removeDir } from "../src/testing/harness.ts";
import {
  maximalPromptWith50Citations,
  noopAdapter,
  openServices,
  stopBenchDatabase,
} from "./fixtures.ts";

const dataDir = await makeTempDir("chat-bench-send-");
const services = await openServices(dataDir, noopAdapter);
const prompt = maximalPromptWith50Citations();
const thread = await services.threads.createThread("bench");
// The first prompt also derives the title; measure the steady state separately below.
await services.provider.sendTurn(thread.id, prompt);
await services.provider.whenIdle();

afterAll(async () => {
  await services.provider.close();
  await services.store.close();
  stopBenchDatabase();
  await removeDir(dataDir);
});

describe("sendTurn, 120,000-character prompt with 50 citations", () => {
  bench(
    "later prompt (validate, expand, store, complete)",
    async () => {
      await services.provider.sendTurn(thread.id, prompt);
      await services.provider.whenIdle();
    },
    { time: 3000, warmupIterations: 5 },
  );

  bench(
    "first prompt of a thread (adds title and branch name)",
    async () => {
      const fresh = await services.threads.createThread();
      await services.provider.sendTurn(fresh.id, prompt);
      await services.provider.whenIdle();
    },
    { time: 3000, warmupIterations: 5 },
  );
});
