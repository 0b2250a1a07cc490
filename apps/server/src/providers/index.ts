/**
 * Provider adapters and the choice between them. ProviderService expands citations before
 * calling any adapter, so adapters here never handle citation links.
 */
import { createDemoProvider } from "./demo.ts";
import { createOpenAiProvider } from "./openai.ts";
import type { ProviderAdapter } from "./types.ts";

export type { DemoProviderOptions } from "./demo.ts";
export { createDemoProvider, DEMO_QUESTION } from "./demo.ts";
export { DEMO_REPEATED_SENTENCE } from "./demoAnswer.ts";
export type { OpenAiChatMessage, OpenAiProviderOptions } from "./openai.ts";
export { buildOpenAiMessages, createOpenAiProvider, DEFAULT_SYSTEM_PROMPT } from "./openai.ts";
export type * from "./types.ts";

/** Names accepted in the PROVIDER environment variable. */
export const PROVIDER_NAMES = ["demo", "openai"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Default OPENAI_BASE_URL. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/** A missing or invalid provider setting; the message names the variable to fix. */
export class ProviderConfigError extends Error {
  override name = "ProviderConfigError";
}

/**
 * Picks the adapter from the environment: PROVIDER unset, empty or "demo" gives the demo
 * adapter; "openai" reads OPENAI_BASE_URL (default {@link DEFAULT_OPENAI_BASE_URL}),
 * OPENAI_API_KEY (required for the default OpenAI URL, optional for other endpoints such as
 * local servers) and OPENAI_MODEL (required).
 * @throws ProviderConfigError naming the missing or invalid variable.
 */
export function createProviderFromEnv(env: NodeJS.ProcessEnv): ProviderAdapter {
  const name = (env.PROVIDER ?? "").trim().toLowerCase();
  if (name === "" || name === "demo") {
    // DEMO_CHUNK_DELAY_MS: pause between chunks (default 15; 0 for benchmarks).
    const delay = nonBlank(env.DEMO_CHUNK_DELAY_MS);
    if (delay === undefined) return createDemoProvider();
    if (!/^\d{1,6}$/.test(delay)) {
      throw new ProviderConfigError(
        `DEMO_CHUNK_DELAY_MS must be an integer >= 0 (got "${delay}").`,
      );
    }
    return createDemoProvider({ chunkDelayMs: Number(delay) });
  }
  if (name !== "openai") {
    throw new ProviderConfigError(
      `Unknown PROVIDER ${JSON.stringify(env.PROVIDER)}; valid names are: ${PROVIDER_NAMES.join(", ")}.`,
    );
  }

  const baseUrl = nonBlank(env.OPENAI_BASE_URL) ?? DEFAULT_OPENAI_BASE_URL;
  const model = nonBlank(env.OPENAI_MODEL);
  if (model === undefined) {
    throw new ProviderConfigError(
      "PROVIDER=openai needs OPENAI_MODEL (the model name, e.g. gpt-4o-mini); it is not set.",
    );
  }
  const apiKey = nonBlank(env.OPENAI_API_KEY);
  if (apiKey === undefined && isDefaultOpenAi(baseUrl)) {
    throw new ProviderConfigError(
      `PROVIDER=openai with ${DEFAULT_OPENAI_BASE_URL} needs OPENAI_API_KEY; it is not set.`,
    );
  }
  try {
    return createOpenAiProvider({ baseUrl, model, ...(apiKey === undefined ? {} : { apiKey }) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderConfigError(`Invalid OPENAI_BASE_URL or OPENAI_MODEL: ${reason}`, {
      cause: error,
    });
  }
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function isDefaultOpenAi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}
