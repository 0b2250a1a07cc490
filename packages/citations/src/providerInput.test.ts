import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sampleCitation } from "./__fixtures__/citations.ts";
import { PROVIDER_INPUT_MAX_CHARS } from "./constants.ts";
import { expandAssistantCitationsForProvider } from "./expandForProvider.ts";
import { checkProviderInput, validateProviderInput } from "./providerInput.ts";
import { serializeAssistantCitation } from "./serialize.ts";

describe("validateProviderInput", () => {
  it("accepts a prompt exactly at the limit and measures it after trimming", () => {
    const prompt = `  \n${"x".repeat(PROVIDER_INPUT_MAX_CHARS)}\n\t`;
    expect(validateProviderInput(prompt)).toStrictEqual({ ok: true, length: 120_000 });
  });

  it("rejects one character over and says by how much", () => {
    const result = validateProviderInput("x".repeat(PROVIDER_INPUT_MAX_CHARS + 1));
    expect(result).toStrictEqual({
      ok: false,
      length: 120_001,
      excess: 1,
      message: "This message is 1 character over the 120,000-character limit.",
    });
  });

  it("formats large excesses with thousands separators", () => {
    const result = validateProviderInput("x".repeat(PROVIDER_INPUT_MAX_CHARS + 1234));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.excess).toBe(1234);
      expect(result.message).toBe(
        "This message is 1,234 characters over the 120,000-character limit.",
      );
    }
  });

  it("uses the expanded length when expansion makes the prompt longer", () => {
    const link = serializeAssistantCitation({ ...sampleCitation, text: "<".repeat(8000) });
    const expandedExtra = expandAssistantCitationsForProvider(link).length;
    expect(expandedExtra).toBeGreaterThan(link.length);
    const padding = "y".repeat(PROVIDER_INPUT_MAX_CHARS - expandedExtra + 1);
    const prompt = `${padding}${link}`;
    expect(prompt.length).toBeLessThanOrEqual(PROVIDER_INPUT_MAX_CHARS);
    const result = validateProviderInput(prompt);
    expect(result).toMatchObject({
      ok: false,
      length: expandAssistantCitationsForProvider(prompt).length,
    });
    expect(result.ok === false && result.excess).toBe(
      expandAssistantCitationsForProvider(prompt).length - PROVIDER_INPUT_MAX_CHARS,
    );
  });

  it("uses the raw length when it is the larger one", () => {
    const link = serializeAssistantCitation({ ...sampleCitation, text: "a".repeat(8000) });
    const raw = `${"z".repeat(PROVIDER_INPUT_MAX_CHARS - link.length - 10)}${link}${link}${link}`;
    const expandedLength = expandAssistantCitationsForProvider(raw).length;
    expect(raw.length).toBeGreaterThan(expandedLength);
    expect(validateProviderInput(raw)).toMatchObject({ ok: false, length: raw.length });
  });

  it("accepts an empty prompt", () => {
    expect(validateProviderInput("   ")).toStrictEqual({ ok: true, length: 0 });
  });
});

describe("checkProviderInput", () => {
  it("returns the trimmed, expanded prompt with the same verdict as validateProviderInput", () => {
    const link = serializeAssistantCitation(sampleCitation);
    const prompt = `  look at ${link}\n`;
    const check = checkProviderInput(prompt);
    expect(check.providerInput).toBe(expandAssistantCitationsForProvider(prompt.trim()));
    expect(check.providerInput).not.toContain(link);
    const { providerInput: _expanded, ...verdict } = check;
    expect(verdict).toStrictEqual(validateProviderInput(prompt));
  });

  it("gives the expanded text and the message over the limit too", () => {
    const check = checkProviderInput("x".repeat(PROVIDER_INPUT_MAX_CHARS + 2));
    expect(check).toMatchObject({
      ok: false,
      excess: 2,
      message: "This message is 2 characters over the 120,000-character limit.",
    });
    expect(check.providerInput).toHaveLength(PROVIDER_INPUT_MAX_CHARS + 2);
  });

  it("agrees with validateProviderInput on every prompt (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc
              .string()
              .map((text) => serializeAssistantCitation({ ...sampleCitation, text: `q${text}` })),
          ),
        ),
        (parts) => {
          const prompt = parts.join(" ");
          const { providerInput, ...verdict } = checkProviderInput(prompt);
          expect(verdict).toStrictEqual(validateProviderInput(prompt));
          expect(providerInput).toBe(expandAssistantCitationsForProvider(prompt.trim()));
        },
      ),
    );
  });
});
