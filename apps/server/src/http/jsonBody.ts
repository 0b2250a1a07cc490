/**
 * Reading a JSON request body: bytes that are not UTF-8 and strings that are not well-formed
 * UTF-16 (lone surrogates, which `\ud800` escapes produce) or hold NUL (U+0000) are
 * `invalid_text`, malformed JSON or nesting deeper than {@link MAX_JSON_DEPTH} `invalid_json`,
 * a wrong shape or a `__proto__` key `invalid_request` (all 400). Nothing lossy reaches storage:
 * SQLite would silently turn each lone surrogate into U+FFFD, and PostgreSQL refuses NUL in text.
 *
 * Hostile bodies cost linear time: the nesting is measured on the raw text before parsing (a
 * 1 MB body of `[` is refused after 65 characters), and the walk over the parsed value uses an
 * explicit stack, so no input can overflow the call stack; a body without any `\u` escape
 * needs no walk at all (figures in PERFORMANCE.md, `bench/jsonBody.bench.ts`).
 */
import { isWellFormedUtf16 } from "@app/citations";
import type { Context } from "hono";
import type { z } from "zod";
import { DomainError } from "../domain/errors.ts";

/** Deepest accepted nesting of arrays and objects (DESIGN.md section 7). */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** True when `text` holds NUL (U+0000), which PostgreSQL cannot store in text. */
export function hasNul(text: string): boolean {
  return text.includes("\0");
}

/** Options of {@link readJsonBody}. */
export interface ReadJsonOptions {
  /** An empty body reads as `{}`. */
  allowEmpty?: boolean;
  /**
   * Top-level keys whose values are ids, not text: NUL there is left to the route, which
   * answers 404 (no id holds NUL) instead of `invalid_text`.
   */
  idKeys?: readonly string[];
}

/** Parses and validates the body against `schema`. */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: ReadJsonOptions = {},
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
  return parseJsonBody(text, schema, options);
}

/**
 * The decoded body's text (from a UTF-8 decode, so free of lone surrogates as characters),
 * parsed, checked and validated against `schema` (see above).
 */
export function parseJsonBody<S extends z.ZodType>(
  text: string,
  schema: S,
  options: ReadJsonOptions = {},
): z.infer<S> {
  const value = parseJsonText(text, options.allowEmpty ?? false);
  if (mayHoldBadText(text)) checkStrings(value, options.idKeys ?? []);
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

/** `JSON.parse` behind the nesting limit; every failure is `invalid_json`. */
export function parseJsonText(text: string, allowEmpty: boolean): unknown {
  if (allowEmpty && text.trim() === "") return {};
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new DomainError(
      "invalid_json",
      `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`,
      { maxDepth: MAX_JSON_DEPTH },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError("invalid_json", "The request body is not valid JSON.");
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text opens more than `max` arrays/objects at once. A single pass that
 * skips string contents (brackets inside strings do not count); it stops at the first level
 * too deep. Malformed text may pass: `JSON.parse` refuses it next.
 */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end === -1) return false;
        let slash = end - 1;
        while (text.charCodeAt(slash) === BACKSLASH) slash--;
        i = end;
        if ((end - 1 - slash) % 2 === 0) break;
      }
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * False when no parsed string can hold NUL, a lone surrogate or a `__proto__` key: the text is
 * valid UTF-8 (so holds no lone surrogate), JSON.parse refuses raw control characters in
 * strings, and without a `\u` escape every string is the text between its quotes. Most bodies
 * skip the walk.
 */
function mayHoldBadText(text: string): boolean {
  return text.includes("\\u") || text.includes("__proto__");
}

/**
 * Walks the parsed JSON without recursion: every string and key well-formed and free of NUL
 * (except the values of top-level `idKeys`), no `__proto__` key. The walk keeps no paths (that
 * would cost several times the walk); a second search finds the path for an error message.
 */
function checkStrings(root: unknown, idKeys: readonly string[]): void {
  if (typeof root === "string") checkText(root, "", false);
  if (typeof root !== "object" || root === null) return;
  const todo: object[] = [root];
  while (todo.length > 0) {
    const value = todo.pop()!;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const child: unknown = value[index];
        if (typeof child === "string") {
          if (!isCleanText(child)) checkText(child, pathTo(root, value, index), false);
        } else if (typeof child === "object" && child !== null) {
          todo.push(child);
        }
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === "__proto__") {
        const where = pathTo(root, value);
        throw new DomainError(
          "invalid_request",
          `The key "__proto__" is not allowed${where ? ` in ${where}` : ""}.`,
        );
      }
      if (!isCleanText(key)) checkText(key, pathTo(root, value, "(key)"), false);
      const child = record[key];
      if (typeof child === "string") {
        if (!isCleanText(child)) {
          checkText(child, pathTo(root, value, key), value === root && idKeys.includes(key));
        }
      } else if (typeof child === "object" && child !== null) {
        todo.push(child);
      }
    }
  }
}

/** A step of {@link pathTo}'s search: the key that led here and the step before. */
type Step = { value: object; key: string | number; parent: Step | null };

/** The dotted path from `root` to `target` (a container in it), plus `last`; for messages. */
function pathTo(root: object, target: object, last?: string | number): string {
  const todo: Step[] = [{ value: root, key: "", parent: null }];
  while (todo.length > 0) {
    const step = todo.pop()!;
    if (step.value === target) {
      const parts: (string | number)[] = last === undefined ? [] : [last];
      for (let s: Step | null = step; s?.parent; s = s.parent) parts.unshift(s.key);
      return parts.join(".");
    }
    const isArray = Array.isArray(step.value);
    for (const [key, child] of Object.entries(step.value)) {
      if (typeof child === "object" && child !== null) {
        todo.push({ value: child, key: isArray ? Number(key) : key, parent: step });
      }
    }
  }
  return "";
}

/** The common case, checked fast: well-formed and no NUL. */
function isCleanText(text: string): boolean {
  return !hasNul(text) && isWellFormedUtf16(text);
}

/** Throws the error `text` deserves, if any (ids may hold NUL: their route answers 404). */
function checkText(text: string, path: string, isId: boolean): void {
  const where = path === "" ? "" : ` in ${path}`;
  if (!isWellFormedUtf16(text)) {
    throw new DomainError(
      "invalid_text",
      `The text${where} contains an unpaired surrogate (ill-formed UTF-16). Remove it or paste the text again.`,
      { field: path },
    );
  }
  if (!isId && hasNul(text)) {
    throw new DomainError(
      "invalid_text",
      `The text${where} contains a NUL character (U+0000), which cannot be stored. Remove it.`,
      { field: path },
    );
  }
}
