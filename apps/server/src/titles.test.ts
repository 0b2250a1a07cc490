import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import {
  type AssistantCitation,
  assistantCitationsToPlainText,
  formatAssistantCitationHref,
  serializeAssistantCitation,
} from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BRANCH_NAME_MAX_LENGTH,
  DEFAULT_BRANCH_NAME,
  DEFAULT_THREAD_TITLE,
  deriveBranchName,
  deriveThreadTitle,
  THREAD_TITLE_MAX_CHARS,
} from "./titles.ts";

/** A citation whose ids and context need percent-encoding in its link. */
function citation(text: string, comment?: string): AssistantCitation {
  return citationFixture({
    environmentId: "env 1",
    threadId: "thread/0",
    messageId: "message%9",
    text,
    start: 3,
    prefix: "pre fix",
    suffix: "suf&fix",
    ...(comment === undefined ? {} : { comment }),
  });
}

const link = (text: string, comment?: string) =>
  serializeAssistantCitation(citation(text, comment));
const codePoints = (text: string) => [...text].length;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}/;

/**
 * `git check-ref-format --branch` rules for `refs/heads/<name>` (see git-check-ref-format(1)),
 * reimplemented so the property test can check thousands of names without spawning git.
 */
function isValidGitBranchName(name: string): boolean {
  if (name === "" || name === "@" || name === "HEAD" || name.startsWith("-")) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

function gitAccepts(name: string): boolean {
  const result = spawnSync("git", ["check-ref-format", "--branch", name], {
    cwd: tmpdir(),
    encoding: "utf8",
  });
  return result.status === 0 && result.stdout.trim() === name;
}

describe("isValidGitBranchName (the reimplemented git rules)", () => {
  it.each(["feature", "a-b", "x/y", "v1.2", "head"])("accepts %j like git", (name) => {
    expect(isValidGitBranchName(name)).toBe(true);
    expect(gitAccepts(name)).toBe(true);
  });
  it.each(["-x", "a..b", "a b", "x.lock", "a@{1}", "x.", ".x", "a//b", "a:b", "a~1"])(
    "rejects %j like git",
    (name) => {
      expect(isValidGitBranchName(name)).toBe(false);
      expect(gitAccepts(name)).toBe(false);
    },
  );
});

describe("deriveThreadTitle", () => {
  it("uses the quote of a prompt that holds only a citation", () => {
    expect(deriveThreadTitle(link("The quick brown fox"))).toBe("The quick brown fox");
  });

  it("shows the comment after the quote, whitespace collapsed", () => {
    const prompt = `  ${link("Line one\n   line two", "Why\tthis?")}  `;
    expect(assistantCitationsToPlainText(prompt)).toContain("\nComment: Why\tthis?");
    expect(deriveThreadTitle(prompt)).toBe("Line one line two Comment: Why this?");
  });

  it("mixes free text and citations", () => {
    expect(deriveThreadTitle(`Compare ${link("alpha")} and\n\n${link("beta", "  ")}`)).toBe(
      "Compare alpha and beta",
    );
  });

  it('is "New thread" for blank prompts', () => {
    expect(deriveThreadTitle("")).toBe(DEFAULT_THREAD_TITLE);
    expect(deriveThreadTitle(" \n\t\u00a0 ")).toBe("New thread");
  });

  it("keeps a title of exactly 60 characters and cuts a longer one to 59 plus an ellipsis", () => {
    const sixty = "x".repeat(60);
    expect(deriveThreadTitle(sixty)).toBe(sixty);
    expect(deriveThreadTitle(`${sixty}y`)).toBe(`${"x".repeat(59)}…`);
  });

  it("drops trailing whitespace before the ellipsis", () => {
    const title = deriveThreadTitle(`${"a".repeat(58)} bcdef`);
    expect(title).toBe(`${"a".repeat(58)}…`);
  });

  it("never splits an emoji at the cut", () => {
    const single = deriveThreadTitle(`${"a".repeat(58)}😀bbbbb`);
    expect(single).toBe(`${"a".repeat(58)}😀…`);
    expect(codePoints(single)).toBe(60);

    const family = "👩‍👩‍👧"; // five code points joined by ZWJ
    const cut = deriveThreadTitle(`${"a".repeat(57)}${family}tail`);
    expect(cut).toBe(`${"a".repeat(57)}…`);

    const flags = deriveThreadTitle("🇫🇷".repeat(40));
    expect(flags).toBe(`${"🇫🇷".repeat(29)}…`);
    expect(flags).not.toMatch(LONE_SURROGATE);
  });

  it("cuts CJK text by characters", () => {
    const title = deriveThreadTitle("漢字かな交じり文".repeat(20));
    expect(codePoints(title)).toBe(60);
    expect(title.endsWith("…")).toBe(true);
    expect("漢字かな交じり文".repeat(20).startsWith(title.slice(0, -1))).toBe(true);
  });

  it("handles a very long prompt with many citations", () => {
    const prompt = Array.from({ length: 200 }, (_, i) => `part ${i} ${link(`quote ${i}`)}`).join(
      " ",
    );
    expect(deriveThreadTitle(prompt)).toBe(
      "part 0 quote 0 part 1 quote 1 part 2 quote 2 part 3 quote 3…",
    );
  });

  it("shows no bytes of a malformed citation link", () => {
    const broken =
      "[Assistant quote](t3-citation://v2/e/t/m?text=hi&start=0&end=2&prefix=&suffix=)";
    const title = deriveThreadTitle(`Look at ${broken} here`);
    expect(title).toBe("Look at here");
    expect(deriveThreadTitle(broken)).toBe(DEFAULT_THREAD_TITLE);
  });

  it("replaces control characters with spaces", () => {
    expect(deriveThreadTitle("a\u0000b\u0007c")).toBe("a b c");
  });
});

describe("deriveBranchName", () => {
  it("slugs the quote of a prompt that holds only a citation", () => {
    expect(deriveBranchName(link("The Quick, Brown fox!"))).toBe("the-quick-brown-fox");
    expect(deriveBranchName(link("Fix it", "Please, soon"))).toBe("fix-it-comment-please-soon");
  });

  it("strips diacritics and spells out special letters", () => {
    expect(deriveBranchName("Crème brûlée à la Française")).toBe("creme-brulee-a-la-francaise");
    expect(deriveBranchName("Straße Ærø ǅemal ﬁle ①")).toBe("strasse-aero-dzemal-file-1");
  });

  it("falls back when nothing survives", () => {
    expect(deriveBranchName("")).toBe(DEFAULT_BRANCH_NAME);
    expect(deriveBranchName("漢字かな交じり文")).toBe("thread");
    expect(deriveBranchName("--- ... @{ }")).toBe("thread");
  });

  it("stays within 40 characters, preferring a word boundary", () => {
    const name = deriveBranchName(
      "Implement the citation navigation feature with highlights today",
    );
    expect(name).toBe("implement-the-citation-navigation");
    expect(deriveBranchName("a".repeat(100))).toBe("a".repeat(BRANCH_NAME_MAX_LENGTH));
  });

  it("never keeps t3-citation, even typed as words", () => {
    expect(deriveBranchName("t3 t3 citation citation")).toBe("thread");
    expect(deriveBranchName("Explain T3 citation links")).toBe("explain-links");
    expect(deriveBranchName("t3-t3-citationcitation")).toBe("thread");
    expect(deriveBranchName("see t3-citation://v1/a/b/c?x")).toBe("see");
  });
});

// Text that may hold anything except the two things the outputs must never show; any `%xx` or
// `t3-citation` in an output could then only come from an encoded link.
const cleanText = (minLength: number) =>
  fc
    .string({ unit: "grapheme", minLength, maxLength: 60 })
    .filter((s) => !s.includes("%") && !/t3-citation/i.test(s) && !/t3\s*citation/i.test(s));

const citationPrompt = fc
  .array(
    fc.oneof(
      cleanText(0),
      fc
        .record({
          text: cleanText(1).filter((s) => /\S/.test(s)),
          comment: fc.option(cleanText(0), { nil: undefined }),
        })
        .map(({ text, comment }) => link(text, comment)),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((parts) => parts.join(" "));

describe("properties", () => {
  it("branch names always pass the git rules and stay short", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (prompt) => {
        const name = deriveBranchName(prompt);
        expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
        expect(name.length).toBeLessThanOrEqual(BRANCH_NAME_MAX_LENGTH);
        expect(isValidGitBranchName(name)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("git itself accepts a sample of branch names", () => {
    const prompts = fc.sample(citationPrompt, { numRuns: 25, seed: 42 });
    prompts.push("Crème brûlée", "...", "-lead", "x.lock", "a..b", "@{u}", "漢字");
    for (const prompt of prompts) {
      const name = deriveBranchName(prompt);
      expect({ prompt, ok: gitAccepts(name) }).toEqual({ prompt, ok: true });
    }
  });

  it("titles stay within 60 code points, whole, trimmed and collapsed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 120 }), (prompt) => {
        const title = deriveThreadTitle(prompt);
        expect(codePoints(title)).toBeLessThanOrEqual(THREAD_TITLE_MAX_CHARS);
        expect(title).not.toMatch(LONE_SURROGATE);
        expect(title).toBe(title.trim());
        expect(title).not.toMatch(/\s\s/);
      }),
      { numRuns: 500 },
    );
  });

  it("prompts made of citation links never show link bytes or percent-escapes", () => {
    fc.assert(
      fc.property(citationPrompt, (prompt) => {
        const title = deriveThreadTitle(prompt);
        const branch = deriveBranchName(prompt);
        for (const output of [title, branch]) {
          expect(output).not.toContain("t3-citation");
          expect(output).not.toMatch(PERCENT_ESCAPE);
        }
        // The title is the start of the readable text (or the default when that is blank).
        const readable = assistantCitationsToPlainText(prompt).replace(/\s+/g, " ").trim();
        if (readable === "") expect(title).toBe(DEFAULT_THREAD_TITLE);
        else expect(readable.startsWith(title.replace(/…$/, "").trimEnd())).toBe(true);
        expect(isValidGitBranchName(branch)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("the links in those prompts really are percent-encoded", () => {
    const href = formatAssistantCitationHref(citation("a b%c", "d/e"));
    expect(href).toContain("t3-citation://v1/env%201/thread%2F0/message%259");
  });
});
