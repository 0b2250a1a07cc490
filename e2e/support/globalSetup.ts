/**
 * Playwright `globalSetup`: seeds the long thread once, into a temporary template directory, for
 * every worker's server to copy (support/fixtures.ts `rig`). The template is handed to the
 * workers in E2E_SEED_TEMPLATE (Playwright passes the runner's environment on to its workers);
 * the returned teardown removes it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertWebBuilt, seedTemplate } from "./rigServer.ts";

export default async function globalSetup(): Promise<() => Promise<void>> {
  assertWebBuilt();
  const dir = await mkdtemp(join(tmpdir(), "chat-e2e-seed-"));
  try {
    process.env.E2E_SEED_TEMPLATE = JSON.stringify(await seedTemplate(dir));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return () => rm(dir, { recursive: true, force: true });
}
