/**
 * Test helper: what every composer test file shares besides `renderComposer()`: the quote they
 * cite (built with the kernel's `@app/citations/testing` fixture) and the per-test lifecycle.
 * Only imported by tests.
 */
import { serializeAssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { afterEach, beforeEach, vi } from "vitest";
import { stubRangeRects } from "./renderComposer.tsx";

/**
 * A quote from message `m1` of `thread-a` (the thread `renderComposer()` uses), with context and
 * a line break plus indentation inside, so chips and links keep whitespace exactly.
 */
export const quote = citationFixture({
  environmentId: "env",
  threadId: "thread-a",
  messageId: "m1",
  text: "The cache is\n  invalidated on write",
  start: 10,
  prefix: "As noted, ",
  suffix: ".",
});
/** The link of {@link quote}. */
export const quoteLink = serializeAssistantCitation(quote);
/** {@link quote} with a comment. */
export const commentedQuote = { ...quote, comment: "Is this still true?" };
/** The link of {@link commentedQuote}. */
export const commentedQuoteLink = serializeAssistantCitation(commentedQuote);
/** The link of {@link quote} with `comment` (as written, untrimmed). */
export function quoteLinkWith(comment: string): string {
  return serializeAssistantCitation({ ...quote, comment });
}

/**
 * Registers the hooks every composer test file needs: an empty `localStorage` before each test;
 * real timers, restored mocks and unstubbed globals after it. `rangeRects` also gives ranges an
 * empty rectangle (`stubRangeRects`), for tests that focus the composer.
 */
export function setUpComposerTests({ rangeRects = false }: { rangeRects?: boolean } = {}): void {
  if (rangeRects) stubRangeRects();
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}
