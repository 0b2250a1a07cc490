import { serializeAssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findMentionQuery, type PromptToken, tokenizePrompt } from "./promptTokens.ts";

const citation = citationFixture({ messageId: "msg-1", text: "the quoted words", start: 4 });
const link = serializeAssistantCitation(citation);

/** Kind and text of each token, for compact assertions. */
function shape(tokens: PromptToken[]): [string, string][] {
  return tokens.map((token) => [token.kind, token.text]);
}

describe("tokenizePrompt", () => {
  it("finds mentions at the start and after whitespace", () => {
    expect(shape(tokenizePrompt("@src/a.ts and\n@b/c.md"))).toEqual([
      ["mention", "@src/a.ts"],
      ["text", " and\n"],
      ["mention", "@b/c.md"],
    ]);
  });

  it("does not treat an @ inside a word (an email) as a mention", () => {
    expect(shape(tokenizePrompt("mail a@b.com"))).toEqual([["text", "mail a@b.com"]]);
  });

  it("leaves trailing sentence punctuation out of a mention", () => {
    const tokens = tokenizePrompt("see @src/a.ts, then");
    expect(shape(tokens)).toEqual([
      ["text", "see "],
      ["mention", "@src/a.ts"],
      ["text", ", then"],
    ]);
    expect(tokens[1]).toMatchObject({ path: "src/a.ts", start: 4, end: 13 });
  });

  it("keeps a lone @ or @ followed by punctuation as text", () => {
    expect(shape(tokenizePrompt("@ @. x"))).toEqual([["text", "@ @. x"]]);
  });

  it("finds skills with letters, digits, underscores and dashes", () => {
    const tokens = tokenizePrompt("$deploy-prod_2 now $5 a$b");
    expect(shape(tokens)).toEqual([
      ["skill", "$deploy-prod_2"],
      ["text", " now $5 a$b"],
    ]);
    expect(tokens[0]).toMatchObject({ name: "deploy-prod_2" });
  });

  it("ends a skill at the first character outside [\\w-]", () => {
    expect(shape(tokenizePrompt("$fix.now"))).toEqual([
      ["skill", "$fix"],
      ["text", ".now"],
    ]);
  });

  it("recognizes citation links and gives them precedence over mentions inside", () => {
    const tokens = tokenizePrompt(`Look ${link} and @x`);
    expect(shape(tokens)).toEqual([
      ["text", "Look "],
      ["citation", link],
      ["text", " and "],
      ["mention", "@x"],
    ]);
    expect(tokens[1]).toMatchObject({ kind: "citation", citation });
  });

  it("stops a mention at a citation link that follows without a space", () => {
    expect(shape(tokenizePrompt(`@a/b${link}`))).toEqual([
      ["mention", "@a/b"],
      ["citation", link],
    ]);
  });

  it("does not start a mention right after a citation link", () => {
    expect(shape(tokenizePrompt(`${link}@a`))).toEqual([
      ["citation", link],
      ["text", "@a"],
    ]);
  });

  it("keeps malformed citation links as text", () => {
    const broken = "[Assistant quote](t3-citation://v2/a/b/c?text=x&start=0&end=1&prefix=&suffix=)";
    expect(shape(tokenizePrompt(broken))).toEqual([["text", broken]]);
  });

  it("uses prevChar to decide whether a trigger starts a token", () => {
    expect(shape(tokenizePrompt("@a", { prevChar: "x" }))).toEqual([["text", "@a"]]);
    expect(shape(tokenizePrompt("@a", { prevChar: " " }))).toEqual([["mention", "@a"]]);
  });

  it("returns no tokens for empty or non-string input", () => {
    expect(tokenizePrompt("")).toEqual([]);
    expect(tokenizePrompt(undefined as unknown as string)).toEqual([]);
  });
});

describe("tokenizePrompt properties", () => {
  const pieces = fc.oneof(
    fc.string(),
    fc.constantFrom(
      "@",
      "$",
      " ",
      "\n",
      "\t",
      "@src/a.ts",
      "$skill",
      ",",
      ".",
      ")",
      "[",
      "]",
      link,
    ),
    fc.constantFrom("[Assistant quote](", "t3-citation://v1/", "\u{1F600}", "\uD800"),
  );
  const prompts = fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join(""));

  it("concatenated tokens reproduce the input exactly, with consistent offsets", () => {
    fc.assert(
      fc.property(prompts, fc.constantFrom("", " ", "x", ")"), (prompt, prevChar) => {
        const tokens = tokenizePrompt(prompt, { prevChar });
        expect(tokens.map((token) => token.text).join("")).toBe(prompt);
        let cursor = 0;
        for (const token of tokens) {
          expect(token.start).toBe(cursor);
          expect(token.end).toBe(cursor + token.text.length);
          expect(prompt.slice(token.start, token.end)).toBe(token.text);
          cursor = token.end;
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never produces two neighbouring text tokens or empty tokens", () => {
    fc.assert(
      fc.property(prompts, (prompt) => {
        const tokens = tokenizePrompt(prompt);
        tokens.forEach((token, index) => {
          expect(token.text.length).toBeGreaterThan(0);
          if (index > 0)
            expect(token.kind === "text" && tokens[index - 1]?.kind === "text").toBe(false);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("tokenizes each chip's source back to the same single chip", () => {
    fc.assert(
      fc.property(prompts, (prompt) => {
        for (const token of tokenizePrompt(prompt)) {
          if (token.kind === "text") continue;
          expect(shape(tokenizePrompt(token.text))).toEqual([[token.kind, token.text]]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (prompt) => {
        expect(
          tokenizePrompt(prompt)
            .map((token) => token.text)
            .join(""),
        ).toBe(prompt);
      }),
      { numRuns: 300 },
    );
  });
});

describe("findMentionQuery", () => {
  it("returns the partial path before the caret", () => {
    expect(findMentionQuery("see @src/fo", 11)).toEqual({ start: 4, query: "src/fo" });
    expect(findMentionQuery("@", 1)).toEqual({ start: 0, query: "" });
  });

  it("returns null when the caret is not right after an @word", () => {
    expect(findMentionQuery("see @src now", 12)).toBeNull();
    expect(findMentionQuery("a@b", 3)).toBeNull();
    expect(findMentionQuery("plain", 5)).toBeNull();
    expect(findMentionQuery("@a", 0)).toBeNull();
  });

  it("uses prevChar at the start of the text", () => {
    expect(findMentionQuery("@a", 2, "x")).toBeNull();
    expect(findMentionQuery("@a", 2, " ")).toEqual({ start: 0, query: "a" });
  });
});
