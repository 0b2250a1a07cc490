/**
 * Resolving a quote in a 1,000,000-character rendered text, plus the selection-side helpers the
 * web app runs on the same text.
 */
import { bench, describe } from "vitest";
import { buildNormalizedRenderedText, normalizeRenderedText } from "../src/normalize.ts";
import { findAssistantCitationText } from "../src/resolve.ts";
import { createAssistantCitationSelector } from "../src/selector.ts";
import { renderedWithNearMisses, renderedWithRepeats } from "./fixtures.ts";

const QUOTE = "the quick brown fox jumps over the lazy dog by the river";
// A near miss that differs in its last character (so one of its words is rare) ...
const nearMisses = renderedWithNearMisses(QUOTE, `${QUOTE.slice(0, -1)}x`, 10_000, 1_000_000);
// ... and one that holds every word of the quote, so each of them occurs 10,001 times.
const hardNearMisses = renderedWithNearMisses(
  QUOTE,
  QUOTE.replace(" dog by", " dog, by"),
  10_000,
  1_000_000,
);
const repeats = renderedWithRepeats(QUOTE, 10_000, 1_000_000);

// Guard the fixtures: the expected outcome and sizes, checked once before measuring.
for (const [name, { rendered, selector }] of [
  ["near misses", nearMisses],
  ["hard near misses", hardNearMisses],
  ["repeats", repeats],
] as const) {
  const result = findAssistantCitationText(rendered, selector);
  if (rendered.length < 990_000 || rendered.length > 1_000_000) {
    throw new Error(`${name}: rendered text is ${rendered.length} characters`);
  }
  if (result.status !== "found" || result.start !== selector.start) {
    throw new Error(`${name}: expected found at ${selector.start}, got ${JSON.stringify(result)}`);
  }
}

const options = { time: 1000, warmupTime: 200 };

describe("resolve: 1M rendered text", () => {
  bench(
    "10,000 near misses differing in the last character",
    () => void findAssistantCitationText(nearMisses.rendered, nearMisses.selector),
    options,
  );
  bench(
    "10,000 near misses holding every word of the quote",
    () => void findAssistantCitationText(hardNearMisses.rendered, hardNearMisses.selector),
    options,
  );
  bench(
    "10,000 exact occurrences, found by context",
    () => void findAssistantCitationText(repeats.rendered, repeats.selector),
    options,
  );
});

describe("selection helpers: 1M rendered text", () => {
  const { rendered } = nearMisses;
  const rawStart = rendered.indexOf(QUOTE);
  // Reading a middle unit flattens the result, which V8 may otherwise leave as a lazy rope.
  bench(
    "normalizeRenderedText",
    () => {
      const normalized = normalizeRenderedText(rendered);
      void normalized.charCodeAt(normalized.length >> 1);
    },
    options,
  );
  bench(
    "createAssistantCitationSelector",
    () => void createAssistantCitationSelector(rendered, rawStart, rawStart + QUOTE.length),
    options,
  );
  bench("buildNormalizedRenderedText", () => void buildNormalizedRenderedText(rendered), options);
});
