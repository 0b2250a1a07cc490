/**
 * `@app/citations/testing`: citation fixtures for tests in every package, so no test hand-writes
 * a citation object or a link. Test code only; never imported by application code.
 */
import type { AssistantCitation } from "./schema.ts";
import { serializeAssistantCitation } from "./serialize.ts";

/**
 * A valid version 1 citation: by default the quote "quoted text" of message `message-1` in
 * thread `thread-1` of environment `env-1`, no context and no comment. `end` follows the
 * quote's length unless given.
 */
export function citationFixture(overrides: Partial<AssistantCitation> = {}): AssistantCitation {
  const text = overrides.text ?? "quoted text";
  const start = overrides.start ?? 0;
  return {
    version: 1,
    environmentId: "env-1",
    threadId: "thread-1",
    messageId: "message-1",
    text,
    start,
    end: start + text.length,
    prefix: "",
    suffix: "",
    ...overrides,
  };
}

/** The Markdown link of {@link citationFixture}`(overrides)`. */
export function citationLinkFixture(overrides: Partial<AssistantCitation> = {}): string {
  return serializeAssistantCitation(citationFixture(overrides));
}
