/**
 * collect / expand / plain text on a realistic 120,000-character prompt and on adversarial
 * inputs of 200,000 and 400,000 characters (the pair shows linear scaling), each against the
 * `new URL` + regex + zod baseline in the same run.
 */
import { bench, describe } from "vitest";
import { collectAssistantCitations } from "../src/collect.ts";
import { expandAssistantCitationsForProvider } from "../src/expandForProvider.ts";
import { assistantCitationsToPlainText } from "../src/plainText.ts";
import { baselineCollect, baselineExpand, baselinePlainText } from "./baseline.ts";
import { adversarialPrompt, promptWithCitations } from "./fixtures.ts";

const prompt = promptWithCitations(120_000, 50);
const adversarial200k = adversarialPrompt(200_000);
const adversarial400k = adversarialPrompt(400_000);

// Guard the fixtures so a change in them cannot silently make the numbers meaningless.
if (prompt.length !== 120_000) throw new Error(`prompt is ${prompt.length} characters`);
if (collectAssistantCitations(prompt).length !== 50) throw new Error("prompt must hold 50 links");
if (baselineCollect(prompt).length !== 50) throw new Error("baseline must see the 50 links");
for (const text of [adversarial200k, adversarial400k]) {
  if (collectAssistantCitations(text).length !== 0) throw new Error("adversarial input has links");
}

const options = { time: 1000, warmupTime: 200 };

// Reading a unit in the middle flattens a string built by concatenation (V8 keeps it as a lazy
// rope until then), so every output is paid for in full, as a consumer sending it would.
const consume = (text: string) => text.charCodeAt(text.length >> 1);

const inputs = [
  ["120k prompt, 50 citations", prompt],
  ["200k adversarial", adversarial200k],
  ["400k adversarial", adversarial400k],
] as const;

/**
 * What V8 alone charges for a result of `length` units like `sample`: two halves joined and read,
 * which copies them into one new flat string. Above 128 KB V8 allocates such a string in its
 * large-object space, and on this VM that allocation (fresh pages, first-touch faults) costs
 * about 0.6 ms whatever the code that asks for it; below, the same copy costs ~0.01 ms.
 */
function floorFor(sample: string): () => void {
  const half = sample.length >> 1;
  const [head, tail] = [sample.slice(0, half), sample.slice(half)];
  return () => void consume(head + tail);
}

for (const [name, input] of inputs) {
  const is120k = input === prompt;
  describe(`collect: ${name}`, () => {
    bench("@app/citations", () => void collectAssistantCitations(input), options);
    bench("baseline (URL + regex + zod)", () => void baselineCollect(input), options);
  });
  describe(`expand: ${name}`, () => {
    bench(
      "@app/citations",
      () => void consume(expandAssistantCitationsForProvider(input)),
      options,
    );
    bench("baseline (URL + regex + zod)", () => void consume(baselineExpand(input)), options);
    if (is120k) {
      bench(
        "@app/citations, result returned but not read",
        () => {
          void expandAssistantCitationsForProvider(input);
        },
        options,
      );
      bench(
        "floor: V8 materializing a string of the result's size",
        floorFor(expandAssistantCitationsForProvider(input)),
        options,
      );
    }
  });
  describe(`plain text: ${name}`, () => {
    bench("@app/citations", () => void consume(assistantCitationsToPlainText(input)), options);
    bench("baseline (URL + regex + zod)", () => void consume(baselinePlainText(input)), options);
    if (is120k) {
      bench(
        "@app/citations, result returned but not read",
        () => {
          void assistantCitationsToPlainText(input);
        },
        options,
      );
      bench(
        "floor: V8 materializing a string of the result's size",
        floorFor(assistantCitationsToPlainText(input)),
        options,
      );
    }
  });
}
