import { describe, expect, it } from "vitest";
import css from "./composer.css?raw";

/** Colour literals that are not the fallback of a `var(--token, …)`. */
function hardCodedColours(source: string): string[] {
  const withoutFallbacks = source.replace(/var\(--[\w-]+,\s*[^)]*\)/g, "var()");
  return withoutFallbacks.match(/#[0-9a-fA-F]{3,8}\b/g) ?? [];
}

describe("composer.css theming", () => {
  it("takes every hex colour from the app's theme variables, so dark mode applies", () => {
    expect(hardCodedColours(css)).toEqual([]);
  });

  it("detects a bare colour (the check itself can fail)", () => {
    expect(hardCodedColours(".x { color: #fff; background: var(--surface, #fff); }")).toEqual([
      "#fff",
    ]);
  });
});
