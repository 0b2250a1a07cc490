/**
 * The body reader against references: the nesting pre-check against the depth of the value
 * JSON.parse builds, and the text rule (NUL or a lone surrogate anywhere: invalid_text) against
 * a direct look at every string.
 */
import { isWellFormedUtf16 } from "@app/citations";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DomainError } from "../domain/errors.ts";
import { nestingExceeds, parseJsonBody } from "./jsonBody.ts";

/** Depth of arrays/objects in a parsed value (recursive: only for the small test values). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

// Strings full of the characters the scanner must see through: brackets, quotes, backslashes.
const trickyString = fc.string({
  unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", "a", "\u0000", "\ud83d\ude00"),
  maxLength: 12,
});
const tricky = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    trickyString,
    fc.integer(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(trickyString, tie("value"), { maxKeys: 3 }),
  ),
})).value;

describe("nestingExceeds", () => {
  it("agrees with the parsed value's depth for every limit", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), tricky), fc.nat(8), (value, max) => {
        const text = JSON.stringify(value, null, max % 2 === 0 ? undefined : 1);
        expect(nestingExceeds(text, max)).toBe(depthOf(value) > max);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses a megabyte of brackets without parsing it", () => {
    expect(nestingExceeds("[".repeat(1_000_000), 64)).toBe(true);
    expect(nestingExceeds(`${"[".repeat(64)}${"]".repeat(64)}`, 64)).toBe(false);
    expect(nestingExceeds(`"${"[".repeat(1_000)}"`, 64)).toBe(false);
    expect(nestingExceeds(`["\\\\", ${"[".repeat(64)}]`, 64)).toBe(true);
    expect(nestingExceeds(`["\\"${"[".repeat(70)}"]`, 64)).toBe(false);
  });
});

/** Every string and key of a parsed value (recursive: only for the small test values). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  return Object.entries(value).flatMap(([key, child]) => [key, ...stringsOf(child)]);
}

describe("parseJsonBody text rule", () => {
  it("refuses exactly the bodies with NUL or a lone surrogate in some string or key", () => {
    const unit = fc.constantFrom("a", "\0", "\ud800", "\udc00", "\ud83d\ude00", "é", '"', "\\");
    const text = fc.string({ unit, maxLength: 6 });
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.integer(),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(text, tie("value"), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(value, (parsed) => {
        const bad = stringsOf(parsed).some((s) => s.includes("\0") || !isWellFormedUtf16(s));
        let code: string | null = null;
        try {
          parseJsonBody(JSON.stringify(parsed), z.unknown());
        } catch (error) {
          code = error instanceof DomainError ? error.code : "thrown";
        }
        expect(code).toBe(bad ? "invalid_text" : null);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("parseJsonBody error messages", () => {
  it("name the field that holds the bad text, however deep", () => {
    const messageOf = (text: string) => {
      try {
        parseJsonBody(text, z.unknown());
      } catch (error) {
        return error instanceof DomainError ? `${error.code}: ${error.message}` : "thrown";
      }
      return "accepted";
    };
    expect(messageOf('{"a":[1,{"b":"\\u0000"}]}')).toMatch(/^invalid_text: .* in a\.1\.b /);
    expect(messageOf('{"a":{"k\\ud800":1}}')).toMatch(/^invalid_text: .* in a\.\(key\) /);
    expect(messageOf('{"a":[{"__proto__":{}}]}')).toMatch(/^invalid_request: .* in a\.0\./);
    expect(messageOf('{"requestId":"\\u0000"}')).toMatch(/^invalid_text: .* in requestId /);
  });
});
