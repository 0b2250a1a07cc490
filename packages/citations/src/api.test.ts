/**
 * Pins the public surface of `@app/citations` (index.ts): exactly the names of DESIGN.md
 * section 4 plus the documented extras, with DESIGN's signatures. The `expectTypeOf` checks are
 * enforced by `pnpm typecheck` (tsc over this file); the rest run in Vitest.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { AssistantCitation } from "./index.ts";
import * as api from "./index.ts";

/** DESIGN.md section 4, in its order. */
const DESIGN_NAMES = [
  "ASSISTANT_CITATION_LABEL",
  "ASSISTANT_CITATION_MAX_ID_LENGTH",
  "ASSISTANT_CITATION_MAX_TEXT_LENGTH",
  "ASSISTANT_CITATION_MAX_COMMENT_LENGTH",
  "ASSISTANT_CITATION_CONTEXT_LENGTH",
  "ASSISTANT_CITATION_MAX_HREF_LENGTH",
  "PROVIDER_INPUT_MAX_CHARS",
  "AssistantCitationSchema",
  "formatAssistantCitationHref",
  "parseAssistantCitationHref",
  "serializeAssistantCitation",
  "collectAssistantCitations",
  "withAssistantCitationComment",
  "assistantCitationsToPlainText",
  "renderAssistantCitationsAsText",
  "expandAssistantCitationsForProvider",
  "validateProviderInput",
  "normalizeRenderedText",
  "createAssistantCitationSelector",
  "findAssistantCitationText",
  "getAssistantCitationChipLabel",
  "formatAssistantCitationHash",
  "parseAssistantCitationHash",
] as const;

/** The documented extras (README.md, "API"). */
const EXTRA_NAMES = [
  "ASSISTANT_CITATION_SCHEME",
  "ASSISTANT_CITATION_LINK_OPENER",
  "isAssistantCitationHref",
  "looksLikeAssistantCitationLink",
  "parseAssistantCitationLink",
  "removeAssistantCitationSyntax",
  "hasNonWhitespace",
  "isAssistantCitation",
  "isWellFormedUtf16",
  "buildNormalizedRenderedText",
  "isRenderedWhitespaceCode",
  "normalizedRangeToRaw",
  "checkProviderInput",
  "truncateText",
] as const;

type PublicName = (typeof DESIGN_NAMES)[number] | (typeof EXTRA_NAMES)[number];

/** The module's exports as a plain record, for run-time checks by name. */
const exported: Record<string, unknown> = { ...api };

describe("@app/citations public API (DESIGN.md section 4)", () => {
  it("exports exactly the contract names and the documented extras", () => {
    expectTypeOf<keyof typeof api>().toEqualTypeOf<PublicName>();
    expect(Object.keys(exported).sort()).toEqual([...DESIGN_NAMES, ...EXTRA_NAMES].sort());
  });

  it("exports the constants with their contract values", () => {
    expect(api.ASSISTANT_CITATION_LABEL).toBe("Assistant quote");
    expect(api.ASSISTANT_CITATION_MAX_ID_LENGTH).toBe(512);
    expect(api.ASSISTANT_CITATION_MAX_TEXT_LENGTH).toBe(8000);
    expect(api.ASSISTANT_CITATION_MAX_COMMENT_LENGTH).toBe(8000);
    expect(api.ASSISTANT_CITATION_CONTEXT_LENGTH).toBe(32);
    expect(api.ASSISTANT_CITATION_MAX_HREF_LENGTH).toBe(160000);
    expect(api.PROVIDER_INPUT_MAX_CHARS).toBe(120000);
    expect(api.ASSISTANT_CITATION_SCHEME).toBe("t3-citation");
    expect(api.ASSISTANT_CITATION_LINK_OPENER).toBe("[Assistant quote](");
    expectTypeOf<typeof api.ASSISTANT_CITATION_LABEL>().toEqualTypeOf<"Assistant quote">();
    expectTypeOf<typeof api.ASSISTANT_CITATION_MAX_HREF_LENGTH>().toEqualTypeOf<160000>();
    expectTypeOf<typeof api.PROVIDER_INPUT_MAX_CHARS>().toEqualTypeOf<120000>();
  });

  it("types a citation as DESIGN writes it", () => {
    expectTypeOf<AssistantCitation>().toEqualTypeOf<{
      version: 1;
      environmentId: string;
      threadId: string;
      messageId: string;
      text: string;
      start: number;
      end: number;
      prefix: string;
      suffix: string;
      comment?: string;
    }>();
    expectTypeOf(api.AssistantCitationSchema.parse).returns.toEqualTypeOf<AssistantCitation>();
    expect(typeof api.AssistantCitationSchema.safeParse).toBe("function");
  });

  it("gives every contract function DESIGN's signature", () => {
    expectTypeOf(api.formatAssistantCitationHref).toEqualTypeOf<(c: AssistantCitation) => string>();
    expectTypeOf(api.parseAssistantCitationHref).toEqualTypeOf<
      (href: string) => AssistantCitation | null
    >();
    expectTypeOf(api.serializeAssistantCitation).toEqualTypeOf<(c: AssistantCitation) => string>();
    expectTypeOf(api.collectAssistantCitations).toEqualTypeOf<
      (
        text: string,
      ) => { citation: AssistantCitation; source: string; start: number; end: number }[]
    >();
    expectTypeOf(api.withAssistantCitationComment).parameter(0).toEqualTypeOf<AssistantCitation>();
    // A missing or null comment reads as "no comment", like a blank one.
    expectTypeOf(api.withAssistantCitationComment)
      .parameter(1)
      .toEqualTypeOf<string | null | undefined>();
    expectTypeOf(api.withAssistantCitationComment).returns.toEqualTypeOf<AssistantCitation>();
    for (const transform of [
      api.assistantCitationsToPlainText,
      api.renderAssistantCitationsAsText,
      api.expandAssistantCitationsForProvider,
      api.normalizeRenderedText,
    ]) {
      expectTypeOf(transform).toEqualTypeOf<(text: string) => string>();
    }
    expectTypeOf(api.validateProviderInput).toEqualTypeOf<
      (
        prompt: string,
      ) =>
        | { ok: true; length: number }
        | { ok: false; length: number; excess: number; message: string }
    >();
    expectTypeOf(api.createAssistantCitationSelector).parameters.toEqualTypeOf<
      [rendered: string, rawStart: number, rawEnd: number]
    >();
    expectTypeOf(api.createAssistantCitationSelector).returns.toEqualTypeOf<{
      text: string;
      start: number;
      end: number;
      prefix: string;
      suffix: string;
    } | null>();
    expectTypeOf(api.findAssistantCitationText).parameter(0).toEqualTypeOf<string>();
    expectTypeOf<AssistantCitation>().toExtend<
      Parameters<typeof api.findAssistantCitationText>[1]
    >();
    expectTypeOf(api.findAssistantCitationText).returns.toEqualTypeOf<
      | { status: "found"; start: number; end: number }
      | { status: "ambiguous"; count: number }
      | { status: "missing" }
    >();
    expectTypeOf(api.getAssistantCitationChipLabel).toEqualTypeOf<
      (c: AssistantCitation) => string
    >();
    expectTypeOf(api.formatAssistantCitationHash).toEqualTypeOf<(href: string) => string>();
    expectTypeOf(api.parseAssistantCitationHash).toEqualTypeOf<
      (hash: string) => AssistantCitation | null
    >();
    for (const name of DESIGN_NAMES.slice(8)) expect(typeof exported[name], name).toBe("function");
  });

  it("gives the documented extras their signatures", () => {
    expectTypeOf(api.isAssistantCitationHref).toEqualTypeOf<(href: string) => boolean>();
    expectTypeOf(api.looksLikeAssistantCitationLink).toEqualTypeOf<(source: string) => boolean>();
    expectTypeOf(api.parseAssistantCitationLink).toEqualTypeOf<
      (source: string) => { href: string; citation: AssistantCitation } | null
    >();
    expectTypeOf(api.removeAssistantCitationSyntax).toEqualTypeOf<(text: string) => string>();
    expectTypeOf(api.hasNonWhitespace).toEqualTypeOf<(value: string) => boolean>();
    expectTypeOf(api.isWellFormedUtf16).toEqualTypeOf<(value: string) => boolean>();
    expectTypeOf(api.isAssistantCitation).guards.toEqualTypeOf<AssistantCitation>();
    expectTypeOf(api.isRenderedWhitespaceCode).toEqualTypeOf<(code: number) => boolean>();
    expectTypeOf(api.buildNormalizedRenderedText).parameters.toEqualTypeOf<[raw: string]>();
    expectTypeOf(api.normalizedRangeToRaw).returns.toEqualTypeOf<{ start: number; end: number }>();
    expectTypeOf(api.checkProviderInput).toEqualTypeOf<
      (
        prompt: string,
      ) =>
        | { ok: true; length: number; providerInput: string }
        | { ok: false; length: number; excess: number; message: string; providerInput: string }
    >();
    expectTypeOf(api.truncateText).toEqualTypeOf<
      (text: string, max: number, ellipsis?: string) => string
    >();
    for (const name of EXTRA_NAMES.slice(2)) expect(typeof exported[name], name).toBe("function");
  });
});
