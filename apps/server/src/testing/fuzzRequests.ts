/**
 * Generated HTTP requests for the fuzz test (`http/api.fuzz.test.ts`). Bodies come from the
 * protocol's own request schemas (`z.toJSONSchema`), filled with hostile text (NUL, lone
 * surrogates, brackets, quotes, citation links, over-long input) and then, some of the time,
 * broken: a key dropped or added, a wrong type, malformed or too deeply nested JSON, a
 * `__proto__` key, bytes that are not UTF-8, the wrong content type. Ids are picked at run time
 * from the ids the server has returned so far, or are hostile strings.
 *
 * A plan is data (generated up front from a seed, so a run can be repeated with FUZZ_SEED);
 * {@link FuzzWorld} turns it into a concrete request against the ids known when it runs.
 */
import {
  CreateThreadBodySchema,
  SendTurnBodySchema,
  UserInputAnswerBodySchema,
} from "@app/protocol";
import fc from "fast-check";
import { z } from "zod";
import { citationLink } from "./harness.ts";

/** The subset of JSON Schema that `z.toJSONSchema` gives for the request bodies. */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minLength?: number;
  maxLength?: number;
}

/** Text that has broken stores and parsers before. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ maxLength: 24 }) },
  {
    weight: 6,
    arbitrary: fc.string({
      unit: fc.constantFrom(
        "\0",
        "\ud800",
        "\udc00",
        "\ud83d\ude00",
        "[",
        "{",
        '"',
        "\\",
        "%",
        "/",
        "\n",
        "a",
        "é",
        " ",
        "?",
      ),
      maxLength: 16,
    }),
  },
  { weight: 2, arbitrary: fc.constant("") },
  {
    weight: 2,
    arbitrary: fc
      .record({
        before: fc.string({ maxLength: 8 }),
        text: fc.string({ minLength: 1, maxLength: 20 }),
      })
      .map(({ before, text }) => {
        // Quoted text starts with a letter: the kernel refuses a citation of blank text.
        const quote = `q${text}`;
        return `${before}${citationLink({ text: quote, end: quote.length })} ok`;
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom("x".repeat(120_001), "y".repeat(20_000)) },
  {
    // NUL inside one field of a citation link (percent-encoded as %00): 400 invalid_text on
    // both stores (issue 29).
    weight: 2,
    arbitrary: fc
      .record({
        field: fc.constantFrom(
          "environmentId",
          "threadId",
          "messageId",
          "text",
          "prefix",
          "suffix",
          "comment",
        ),
        before: fc.string({ maxLength: 4 }),
        after: fc.string({ maxLength: 4 }),
      })
      .map(({ field, before, after }) =>
        citationLink({ text: "quoted", end: 6, [field]: `q${before}\u0000${after}` }),
      ),
  },
);

/**
 * Chunks a fuzzed provider sends (issue 29): NUL, lone surrogates and pairs split across two
 * chunks, which every store must keep as the same well-formed text.
 */
export const hostileProviderChunks: fc.Arbitrary<string[]> = fc.array(
  fc.string({
    unit: fc.constantFrom("\0", "\ud800", "\udc00", "\ud83d", "\ude00", "a", " ", "é"),
    maxLength: 8,
  }),
  { minLength: 1, maxLength: 4 },
);

/** Values of `schema`, with strings from `text` (cut or padded to the schema's length bounds). */
export function arbitraryOf(schema: JsonSchema, text: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  if (schema.type === "string") {
    return text.map((s) => {
      const long = s.padEnd(schema.minLength ?? 0, "x");
      return schema.maxLength === undefined ? long : long.slice(0, schema.maxLength);
    });
  }
  if (schema.type === "object") {
    if (schema.properties) {
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of Object.entries(schema.properties)) {
        shape[key] = arbitraryOf(value, text);
      }
      return fc.record(shape, { requiredKeys: schema.required ?? [] });
    }
    if (typeof schema.additionalProperties === "object") {
      return fc.dictionary(text, arbitraryOf(schema.additionalProperties, text), { maxKeys: 3 });
    }
    return fc.constant({});
  }
  return fc.jsonValue({ maxDepth: 2 });
}

const schemaOf = (schema: z.ZodType) => z.toJSONSchema(schema) as JsonSchema;

/** A body as sent: JSON of a value, or raw text/bytes that no serializer would produce. */
export type FuzzBody =
  | { kind: "json"; value: unknown }
  | { kind: "raw"; text: string }
  | { kind: "bytes"; bytes: readonly number[] };

/** A value of `schema` (usually valid), sometimes with its shape broken. */
function bodyOf(schema: JsonSchema): fc.Arbitrary<FuzzBody> {
  const valid = arbitraryOf(schema, hostileText);
  const broken = fc.oneof(
    // Wrong type for one property, or an unknown key.
    fc
      .tuple(
        valid,
        fc.constantFrom(...Object.keys(schema.properties ?? { x: {} })),
        fc.jsonValue({ maxDepth: 1 }),
      )
      .map(([value, key, other]) => ({ ...(value as object), [key]: other })),
    valid.map((value) => ({ ...(value as object), unexpected: true })),
    fc.constantFrom(null, [], 42, "text"),
  );
  const raw = fc.oneof(
    fc.constantFrom('{"input": "unterminated', "", "{", "[1,]", '{"__proto__":{"x":1}}'),
    fc.integer({ min: 60, max: 70 }).map((d) => `{"input":${"[".repeat(d)}${"]".repeat(d)}}`),
    fc.integer({ min: 1_000, max: 200_000 }).map((d) => `{"title":${"[".repeat(d)}`),
    fc.string({ maxLength: 12 }).map((s) => `{"input":"${s.replace(/["\\]/g, "")}\\u0000"}`),
    fc.constantFrom('{"input":"\\ud800"}', '{"title":"\\udfff x"}'),
  );
  return fc.oneof(
    { weight: 12, arbitrary: valid.map((value) => ({ kind: "json" as const, value })) },
    { weight: 3, arbitrary: broken.map((value) => ({ kind: "json" as const, value })) },
    { weight: 3, arbitrary: raw.map((text) => ({ kind: "raw" as const, text })) },
    {
      weight: 1,
      arbitrary: fc.constant<FuzzBody>({
        kind: "bytes",
        bytes: [0x7b, 0x22, 0x69, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d],
      }),
    },
  );
}

/** Which id a request uses: one the server returned (by index), or a hostile string. */
export type IdPick = { known: number } | { hostile: string };

const idPick: fc.Arbitrary<IdPick> = fc.oneof(
  { weight: 8, arbitrary: fc.nat().map((known) => ({ known })) },
  {
    weight: 2,
    arbitrary: hostileText.filter((s) => s.length < 100).map((hostile) => ({ hostile })),
  },
);

/** One planned request. */
export type FuzzPlan =
  | { route: "createThread"; body: FuzzBody; contentType: string }
  | { route: "sendTurn"; thread: IdPick; body: FuzzBody; contentType: string }
  | { route: "answer"; thread: IdPick; request: IdPick; body: FuzzBody }
  | { route: "cancel"; thread: IdPick; turn: IdPick; body: FuzzBody }
  | {
      route: "messages";
      thread: IdPick;
      query: "before" | "after" | "around" | "none";
      value: IdPick;
      limit: string | null;
    }
  | { route: "detail" | "export" | "threads" | "environment"; thread: IdPick }
  | { route: "providerInput"; thread: IdPick; turn: IdPick }
  | { route: "events"; thread: IdPick; lastEventId: string | { offset: number } | null }
  | { route: "files"; query: string }
  | { route: "junk"; method: string; path: string };

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constantFrom("text/plain", "application/json; charset=utf-8", "") },
);

/** Every route, weighted toward the ones that write. */
export const fuzzPlan: fc.Arbitrary<FuzzPlan> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      route: fc.constant("createThread" as const),
      body: bodyOf(schemaOf(CreateThreadBodySchema)),
      contentType,
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      route: fc.constant("sendTurn" as const),
      thread: idPick,
      body: bodyOf(schemaOf(SendTurnBodySchema)),
      contentType,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      route: fc.constant("answer" as const),
      thread: idPick,
      request: idPick,
      body: bodyOf(schemaOf(UserInputAnswerBodySchema)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant("cancel" as const),
      thread: idPick,
      turn: idPick,
      body: fc.constant<FuzzBody>({ kind: "json", value: {} }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      route: fc.constant("messages" as const),
      thread: idPick,
      query: fc.constantFrom("before", "after", "around", "none"),
      value: idPick,
      limit: fc.option(
        fc.oneof(fc.constantFrom("1", "40", "0", "-1", "99999999999", "x"), hostileText),
      ),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      route: fc.constantFrom("detail", "export", "threads", "environment"),
      thread: idPick,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant("providerInput" as const),
      thread: idPick,
      turn: idPick,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      route: fc.constant("events" as const),
      thread: idPick,
      lastEventId: fc.option(
        fc.oneof(
          fc.integer({ min: -3, max: 3 }).map((offset) => ({ offset })),
          fc.constantFrom("0", "-1", "1e3", "99999999999999999", " 7 "),
          hostileText,
        ),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ route: fc.constant("files" as const), query: hostileText }) },
  {
    weight: 1,
    arbitrary: fc.record({
      route: fc.constant("junk" as const),
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"),
      path: fc.constantFrom(
        "/api",
        "/api/",
        "/api/threads/x/y/z",
        "/%61pi/threads",
        "/api/threads/%zz",
        "/api/threads/..%2f..%2fetc",
        "//evil.example/",
        "/assets/%00.js",
      ),
    }),
  },
);
