/**
 * The navigation hash (`#assistant-citation=<base64url of the UTF-8 href>`) on the largest
 * inputs it meets: the longest valid href (every field at its limit in 3-byte characters, all
 * percent-encoded, so ASCII) and a 160,000-character string of mixed prose (CJK, emoji,
 * accents), which exercises the UTF-8 paths. Each against the hand-written encoder the kernel
 * used before (`src/__fixtures__/handWrittenHash.ts`).
 */
import { bench, describe } from "vitest";
import {
  handWrittenFormatHash,
  handWrittenParseHash,
} from "../src/__fixtures__/handWrittenHash.ts";
import { formatAssistantCitationHash, parseAssistantCitationHash } from "../src/hash.ts";
import { formatAssistantCitationHref } from "../src/href.ts";
import { longestCitation, prose160k } from "./fixtures.ts";

const longestHref = formatAssistantCitationHref(longestCitation);
const mixed = prose160k();
if (mixed.length !== 160_000) throw new Error(`mixed input is ${mixed.length} characters`);
if (longestHref.length < 150_000) throw new Error(`longest href is ${longestHref.length}`);

const options = { time: 1000, warmupTime: 200 };

const inputs = [
  [`longest valid href (${longestHref.length.toLocaleString("en")} chars, ASCII)`, longestHref],
  ["160,000-char mixed text", mixed],
] as const;

for (const [name, input] of inputs) {
  const hash = formatAssistantCitationHash(input);
  if (hash !== handWrittenFormatHash(input)) throw new Error("the two encoders disagree");
  describe(`format hash: ${name}`, () => {
    bench(
      "@app/citations (TextEncoder + btoa)",
      () => void formatAssistantCitationHash(input),
      options,
    );
    bench("baseline (hand-written)", () => void handWrittenFormatHash(input), options);
  });
  describe(`parse hash: ${name}`, () => {
    bench(
      "@app/citations (atob + TextDecoder)",
      () => void parseAssistantCitationHash(hash),
      options,
    );
    bench("baseline (hand-written)", () => void handWrittenParseHash(hash), options);
  });
}
