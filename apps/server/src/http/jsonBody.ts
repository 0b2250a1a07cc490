/**
 * Reading a JSON request body: bytes that are not UTF-8 and strings that are not well-formed
 * UTF-16 (lone surrogates, which `\ud800` escapes produce) are `invalid_text`, malformed JSON
 * `invalid_json`, a wrong shape or a `__proto__` key `invalid_request` (all 400). Nothing
 * lossy reaches storage: SQLite would silently turn each lone surrogate into U+FFFD.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { DomainError } from "../domain/errors.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `text` is well-formed UTF-16 (every surrogate is half of a pair). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Parses and validates the body against `schema` (an empty body is `{}` when `allowEmpty`). */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { allowEmpty?: boolean } = {},
): Promise<z.infer<S>> {
  let text: string;
  try {
    text = utf8.decode(await c.req.arrayBuffer());
  } catch (error) {
    if (error instanceof TypeError) {
      throw new DomainError("invalid_text", "The request body is not valid UTF-8.");
    }
    throw error;
  }
  let value: unknown;
  if (text.trim() === "" && options.allowEmpty) {
    value = {};
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      throw new DomainError("invalid_json", "The request body is not valid JSON.");
    }
  }
  checkStrings(value, []);
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
    throw new DomainError(
      "invalid_request",
      `Invalid request body. ${where}${issue?.message ?? "unexpected shape"}`,
    );
  }
  return parsed.data;
}

/** Walks the parsed JSON: every string and key well-formed, no `__proto__` key. */
function checkStrings(value: unknown, path: (string | number)[]): void {
  if (typeof value === "string") {
    if (!isWellFormedText(value)) {
      const where = path.length > 0 ? ` in ${path.join(".")}` : "";
      throw new DomainError(
        "invalid_text",
        `The text${where} contains an unpaired surrogate (ill-formed UTF-16). Remove it or paste the text again.`,
        { field: path.join(".") },
      );
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkStrings(item, [...path, index]);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const key of Object.keys(value)) {
    if (key === "__proto__") {
      throw new DomainError(
        "invalid_request",
        `The key "__proto__" is not allowed${path.length ? ` in ${path.join(".")}` : ""}.`,
      );
    }
    checkStrings(key, [...path, "(key)"]);
    checkStrings((value as Record<string, unknown>)[key], [...path, key]);
  }
}
