/**
 * Reading hostile 1 MB request bodies (issue 19 item 3): each bench is one body through what
 * `readJsonBody` does after decoding (nesting pre-check, JSON.parse, the string walk, the zod
 * schema), which runs on the event loop. Before the fix, the deep bodies threw a RangeError
 * after blocking for 0.2-0.9 s. Figures in PERFORMANCE.md.
 */
import { SendTurnBodySchema, UserInputAnswerBodySchema } from "@app/protocol";
import { bench, describe } from "vitest";
import { DomainError } from "../src/domain/errors.ts";
import { parseJsonBody } from "../src/http/jsonBody.ts";

const MB = 1024 * 1024;

/** `unit` repeated to fill `size` characters between `head` and `tail`. */
function fill(head: string, unit: string, sep: string, tail: string, size = MB): string {
  const count = Math.floor((size - head.length - tail.length) / (unit.length + sep.length));
  return `${head}${Array.from({ length: count }, () => unit).join(sep)}${tail}`;
}

const halfDeep = Math.floor((MB - 10) / 2);
const nest64 = `${"[".repeat(62)}${"]".repeat(62)}`;
// Each accepted shape starts with a `\u` escape, which makes the server walk every string
// (without one, no parsed string can hold NUL or a lone surrogate and the walk is skipped).
const bodies: Record<string, string> = {
  "deep: {input: 500k [ then ]}": `{"input":${"[".repeat(halfDeep)}${"]".repeat(halfDeep)}}`,
  "deep: 1 MB of [": "[".repeat(MB),
  "64 levels, repeated (the deepest accepted)": fill('{"input":["\\u0041",', nest64, ",", "]}"),
  "64 levels, repeated, NUL at the end (error path)": fill(
    '{"input":["\\u0041",',
    nest64,
    ",",
    `,[${"[".repeat(61)}"\\u0000"${"]".repeat(61)}]]}`,
  ),
  "empty arrays at depth 2": fill('{"input":["\\u0041",', "[]", ",", "]}"),
  "empty arrays at depth 2, no escape (walk skipped)": fill('{"input":[', "[]", ",", "]}"),
  "short strings at depth 2": fill('{"input":["\\u0041",', '""', ",", "]}"),
  "70k answer keys": fill('{"requestId":"\\u0041","answers":{', '"k":"v"', ",", "}}"),
  "one 1 MB string with emoji": fill('{"input":"', "ab\\ud83d\\ude00", "", '"}'),
  "one 1 MB string of escaped quotes": fill('{"input":"\\u0041', '\\"\\\\', "", '"}'),
};

describe("hostile 1 MB bodies (nesting check, parse, string walk, schema)", () => {
  for (const [name, text] of Object.entries(bodies)) {
    const schema = name.includes("answer") ? UserInputAnswerBodySchema : SendTurnBodySchema;
    bench(name, () => {
      try {
        parseJsonBody(text, schema);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
      }
    });
  }
  // What any 1 MB body costs to parse, without the checks: the floor for the figures above.
  bench("baseline: JSON.parse alone, 64 levels repeated", () => {
    JSON.parse(bodies["64 levels, repeated (the deepest accepted)"]!);
  });
  bench("baseline: JSON.parse alone, one 1 MB string", () => {
    JSON.parse(bodies["one 1 MB string with emoji"]!);
  });
});
