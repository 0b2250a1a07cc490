import { afterEach, describe, expect, it } from "vitest";
import { createProviderFromEnv, ProviderConfigError } from "./index.ts";
import {
  type FakeOpenAiServer,
  SSE_DONE,
  sseDelta,
  startFakeOpenAiServer,
} from "./testing/fakeOpenAiServer.ts";
import { createRecordingContext, messageText } from "./testing/recordingContext.ts";

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createProviderFromEnv", () => {
  it("uses the demo provider when PROVIDER is unset, blank or demo", () => {
    expect(createProviderFromEnv({}).name).toBe("demo");
    expect(createProviderFromEnv({ PROVIDER: "  " }).name).toBe("demo");
    expect(createProviderFromEnv({ PROVIDER: "Demo" }).name).toBe("demo");
  });

  it("rejects an unknown provider and lists the valid names", () => {
    expect(() => createProviderFromEnv({ PROVIDER: "anthropic" })).toThrow(ProviderConfigError);
    expect(() => createProviderFromEnv({ PROVIDER: "anthropic" })).toThrow(
      'Unknown PROVIDER "anthropic"; valid names are: demo, openai.',
    );
  });

  it("names OPENAI_MODEL when it is missing", () => {
    expect(() =>
      createProviderFromEnv({ PROVIDER: "openai", OPENAI_API_KEY: "sk-x", OPENAI_MODEL: " " }),
    ).toThrow(/needs OPENAI_MODEL/);
  });

  it("names OPENAI_API_KEY when the default OpenAI endpoint is used without one", () => {
    expect(() =>
      createProviderFromEnv({ PROVIDER: "openai", OPENAI_MODEL: "gpt-4o-mini" }),
    ).toThrow(/api\.openai\.com\/v1 needs OPENAI_API_KEY/);
    const provider = createProviderFromEnv({
      PROVIDER: "openai",
      OPENAI_MODEL: "gpt-4o-mini",
      OPENAI_API_KEY: "sk-x",
    });
    expect(provider.name).toBe("openai");
  });

  it("names OPENAI_BASE_URL when it is not a URL", () => {
    expect(() =>
      createProviderFromEnv({ PROVIDER: "openai", OPENAI_MODEL: "m", OPENAI_BASE_URL: "nope" }),
    ).toThrow(/Invalid OPENAI_BASE_URL or OPENAI_MODEL: .*not a valid URL/);
  });

  it("wires OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL into the requests", async () => {
    server = await startFakeOpenAiServer(() => ({
      type: "stream",
      writes: [sseDelta("from env", "stop"), SSE_DONE],
    }));
    const provider = createProviderFromEnv({
      PROVIDER: "openai",
      OPENAI_BASE_URL: server.baseUrl,
      OPENAI_API_KEY: "sk-env",
      OPENAI_MODEL: "env-model",
    });
    const { ctx, messages } = createRecordingContext({ input: "hi" });
    await provider.runTurn(ctx);
    expect(messages.map(messageText)).toEqual(["from env"]);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-env");
    expect(JSON.parse(server.requests[0]!.body).model).toBe("env-model");
  });

  it("allows a local endpoint without an API key", () => {
    const provider = createProviderFromEnv({
      PROVIDER: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_MODEL: "llama3",
    });
    expect(provider.name).toBe("openai");
  });
});
