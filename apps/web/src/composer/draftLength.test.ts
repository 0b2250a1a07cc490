import {
  expandAssistantCitationsForProvider,
  PROVIDER_INPUT_MAX_CHARS,
  validateProviderInput,
} from "@app/citations";
import { citationLinkFixture } from "@app/citations/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DRAFT_COUNT_FROM, draftLengthStatus, formatCount } from "./draftLength.ts";

const quote = (text: string, messageId = "m1") =>
  citationLinkFixture({ environmentId: "env", threadId: "thread", messageId, text });

describe("draftLengthStatus", () => {
  it("says nothing below 90% of the limit", () => {
    expect(DRAFT_COUNT_FROM).toBe(108_000);
    expect(draftLengthStatus("")).toEqual({ kind: "quiet" });
    expect(draftLengthStatus("x".repeat(107_999))).toEqual({ kind: "quiet" });
  });

  it('counts from 90%: "118,432 / 120,000"', () => {
    expect(draftLengthStatus("x".repeat(108_000))).toMatchObject({
      kind: "near",
      label: "108,000 / 120,000",
    });
    expect(draftLengthStatus("x".repeat(118_432))).toMatchObject({
      kind: "near",
      length: 118_432,
      label: "118,432 / 120,000",
    });
    expect(draftLengthStatus("x".repeat(120_000)).kind).toBe("near");
  });

  it('over the limit: "1,234 over" with the reason', () => {
    expect(draftLengthStatus("x".repeat(121_234))).toEqual({
      kind: "over",
      length: 121_234,
      excess: 1_234,
      label: "1,234 over",
      reason: "Too long to send: the limit is 120,000 characters.",
    });
  });

  it("measures after trimming, as the send check does", () => {
    expect(draftLengthStatus(`  ${"x".repeat(120_000)}\n\n  `).kind).toBe("near");
  });

  it("counts quotes in full: the larger of the raw and expanded length", () => {
    // "<" is 3 characters in a link (%3C) but 6 in the expansion's JSON (\u003c): four such
    // quotes fit as typed and are far over the limit as sent.
    const prompt = Array.from({ length: 4 }, (_, i) => quote("<".repeat(7_000), `m${i}`)).join(" ");
    const raw = prompt.length;
    const expanded = expandAssistantCitationsForProvider(prompt).length;
    expect(raw).toBeLessThan(PROVIDER_INPUT_MAX_CHARS);
    expect(expanded).toBeGreaterThan(PROVIDER_INPUT_MAX_CHARS);
    expect(draftLengthStatus(prompt)).toEqual({
      kind: "over",
      length: expanded,
      excess: expanded - PROVIDER_INPUT_MAX_CHARS,
      label: `${formatCount(expanded - PROVIDER_INPUT_MAX_CHARS)} over`,
      reason: "Too long to send: quoted text counts in full toward the 120,000-character limit.",
    });
  });

  it("uses the send check's own number (property)", () => {
    const piece = fc.oneof(
      fc.constant("x".repeat(20_000)),
      fc.constant(" \n "),
      fc.constant(quote("a cited sentence")),
      fc.constant(quote("c".repeat(5_000), "m2")),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const prompt = pieces.join("");
        const check = validateProviderInput(prompt);
        const status = draftLengthStatus(prompt);
        if (status.kind === "quiet") expect(check.length).toBeLessThan(DRAFT_COUNT_FROM);
        else expect(status.length).toBe(check.length);
        expect(status.kind === "over").toBe(!check.ok);
        if (!check.ok) expect(status).toMatchObject({ excess: check.excess });
      }),
      { numRuns: 200 },
    );
  });
});

describe("formatCount", () => {
  it("groups thousands with commas whatever the locale", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1_234)).toBe("1,234");
    expect(formatCount(120_000)).toBe("120,000");
    expect(formatCount(1_234_567)).toBe("1,234,567");
  });
});
