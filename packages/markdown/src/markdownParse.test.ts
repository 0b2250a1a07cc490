/**
 * One processor parses every block (`markdownParse.ts`), and micromark keeps the syntax it
 * combined for that processor's extensions (patches/micromark@4.0.3.patch): parses must not
 * leak into each other, and a reused processor must parse exactly as a new one does.
 */
import fc from "fast-check";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { parseSafeMarkdown } from "./markdownParse.ts";

const newProcessor = () => unified().use(remarkParse).use(remarkGfm);
const reused = newProcessor().freeze();

const PIECES = [
  "para",
  "**bold** and _em_",
  "~~gone~~",
  "www.example.com",
  "a@b.co",
  "[x][r]",
  "[r]: http://a",
  "[^1]",
  "[^1]: note",
  "| a | b |",
  "| --- | --- |",
  "- [ ] task",
  "1. one",
  "```ts",
  "```",
  "    code",
  "> quote",
  "<div>",
  "&amp;",
  "",
] as const;

describe("parsing with one processor", () => {
  it("parses as a new processor does, block after block (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }), { maxLength: 6 }),
        (blocks) => {
          for (const lines of blocks) {
            const source = lines.join("\n");
            expect(reused.parse(source)).toEqual(newProcessor().parse(source));
          }
        },
      ),
    );
  });

  it("forgets a block's reference definitions before the next block", () => {
    const defined = parseSafeMarkdown("[r]: http://a.example\n\n[x][r]", "assistant");
    expect(JSON.stringify(defined)).toContain('"tagName":"a"');
    const next = parseSafeMarkdown("[x][r]", "assistant");
    expect(JSON.stringify(next)).not.toContain('"tagName":"a"');
  });

  it("keeps GitHub syntax in both flavors, alternating", () => {
    for (let round = 0; round < 3; round++) {
      for (const flavor of ["assistant", "user"] as const) {
        const tree = JSON.stringify(parseSafeMarkdown("| a |\n| - |\n| ~~b~~ |", flavor));
        expect(tree).toContain('"tagName":"table"');
        expect(tree).toContain('"tagName":"del"');
      }
    }
  });
});

describe("text direction", () => {
  type Node = { type: string; tagName?: string; properties?: { dir?: unknown }; children?: Node[] };
  const directions = (node: Node, out: string[] = []): string[] => {
    if (node.type === "element") out.push(`${node.tagName}:${node.properties?.dir ?? "-"}`);
    for (const child of node.children ?? []) directions(child, out);
    return out;
  };

  it("lays out each text block by its own first strong character; code stays left to right", () => {
    for (const flavor of ["assistant", "user"] as const) {
      const found = [
        ...directions(parseSafeMarkdown("# مرحبا world", flavor)),
        ...directions(parseSafeMarkdown("שלום *and* hello", flavor)),
        ...directions(parseSafeMarkdown("- أ\n- b", flavor)),
        ...directions(parseSafeMarkdown("> quote", flavor)),
        ...directions(parseSafeMarkdown("| a |\n| - |\n| ب |", flavor)),
        ...directions(parseSafeMarkdown("```\nconst a = 1;\n```", flavor)),
      ];
      expect(found).toEqual([
        "h1:auto",
        "p:auto",
        "em:-",
        "ul:-",
        "li:auto",
        "li:auto",
        "blockquote:auto",
        "p:auto",
        "table:-",
        "thead:-",
        "tr:-",
        "th:auto",
        "tbody:-",
        "tr:-",
        "td:auto",
        "pre:-",
        "code:-",
      ]);
    }
  });
});
