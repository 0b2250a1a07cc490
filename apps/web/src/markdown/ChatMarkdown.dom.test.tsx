import {
  collectAssistantCitations,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
  serializeAssistantCitation,
} from "@app/citations";
import { markdownUrlTransform, rehypeAutoDirection } from "@app/markdown";
import { cleanup, render, screen, within } from "@testing-library/react";
import fc from "fast-check";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { ChatMarkdown, chatMarkdownComponents } from "./ChatMarkdown.tsx";

const citation = {
  version: 1 as const,
  environmentId: "env-1",
  threadId: "thread-1",
  messageId: "msg-1",
  text: "the quoted sentence",
  start: 10,
  end: 29,
  prefix: "before ",
  suffix: " after",
};

function renderMarkdown(text: string) {
  return render(<ChatMarkdown text={text} />).container.querySelector(".chat-markdown")!;
}

describe("ChatMarkdown elements", () => {
  it("renders headings, lists, emphasis and GFM tables in a scroll container", () => {
    const root = renderMarkdown(
      "# Title\n\nSome **bold** text.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    );
    expect(screen.getByRole("heading", { level: 1, name: "Title" })).toBeInTheDocument();
    expect(root.querySelector("strong")?.textContent).toBe("bold");
    expect(screen.getAllByRole("listitem").map((li) => li.textContent)).toEqual(["one", "two"]);
    const table = screen.getByRole("table");
    expect(table.parentElement).toHaveClass("md-table-scroll");
    expect(
      within(table)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["1", "2"]);
  });

  it("renders fenced code with its language and a Copy code button outside the pre", () => {
    const root = renderMarkdown("```ts\nconst x = 1;\n```\n");
    const button = screen.getByRole("button", { name: "Copy code" });
    expect(root.querySelector("pre code")?.textContent).toBe("const x = 1;\n");
    expect(root.querySelector("pre")?.contains(button)).toBe(false);
    expect(root.querySelector(".code-block__language")?.textContent).toBe("ts");
  });

  it("stamps block elements with their source offsets in the whole text", () => {
    const text = "Intro paragraph.\n\n## Part\n\n- a\n- b\n";
    const root = renderMarkdown(text);
    const slices = [...root.querySelectorAll("[data-md-start]")].map((el) =>
      text.slice(Number(el.getAttribute("data-md-start")), Number(el.getAttribute("data-md-end"))),
    );
    expect(slices).toEqual(["Intro paragraph.", "## Part", "- a\n- b", "- a", "- b"]);
  });

  it("opens http links in a new tab without an opener", () => {
    renderMarkdown("See [docs](https://example.com/a?b=c) and <mailto:me@example.com>.");
    const link = screen.getByRole("link", { name: "docs" });
    expect(link).toHaveAttribute("href", "https://example.com/a?b=c");
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
    expect(screen.getByRole("link", { name: "mailto:me@example.com" })).toHaveAttribute(
      "href",
      "mailto:me@example.com",
    );
  });
});

describe("ChatMarkdown prompt tokens", () => {
  it("shows @mentions and $skills in user messages as inline tokens, not in code or links", () => {
    const text =
      "Check @src/a.ts, then run $review. Mail me@example.com, not `@code` or [@link](https://x.y).";
    const root = render(<ChatMarkdown text={text} flavor="user" />).container;
    const tokens = [...root.querySelectorAll("[data-prompt-token]")].map((el) => [
      el.getAttribute("data-prompt-token"),
      el.textContent,
    ]);
    expect(tokens).toEqual([
      ["mention", "@src/a.ts"],
      ["skill", "$review"],
    ]);
    expect(root.textContent).toBe(
      text.replace("`@code`", "@code").replace("[@link](https://x.y)", "@link"),
    );
  });

  it("leaves assistant text untouched", () => {
    const root = render(<ChatMarkdown text="Try @src/a.ts with $review" />).container;
    expect(root.querySelector("[data-prompt-token]")).toBeNull();
  });
});

describe("ChatMarkdown safety", () => {
  it("shows raw HTML as text and never creates script or img elements", () => {
    const root = renderMarkdown(
      'Hi <script>alert("x")</script> there\n\n<img src=x onerror="alert(1)">\n\n<div onclick="alert(2)">block</div>\n',
    );
    expect(root.querySelector("script, img, div[onclick], [onerror]")).toBeNull();
    expect(root.textContent).toContain('<script>alert("x")</script>');
    expect(root.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it("renders javascript:, data: and relative links as plain text", () => {
    const root = renderMarkdown(
      "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) [d](/local) [e](#frag) <javascript:alert(3)> [f](java\tscript:alert(1))",
    );
    expect(root.querySelector("a")).toBeNull();
    expect(root.textContent).toContain("a b c d e");
  });

  it("never loads images; a safe image becomes a link and an unsafe one plain text", () => {
    const root = renderMarkdown(
      "![pixel](https://tracker.example/p.gif) ![bad](javascript:alert(1))",
    );
    expect(root.querySelector("img")).toBeNull();
    expect(screen.getByRole("link", { name: "Image: pixel" })).toHaveAttribute(
      "href",
      "https://tracker.example/p.gif",
    );
    expect(root.textContent).toContain("Image: bad");
  });

  it("renders a valid citation link in a user message as a chip linking to its source", () => {
    const link = serializeAssistantCitation(citation);
    const root = render(
      <ChatMarkdown text={`Look: ${link} please`} flavor="user" />,
    ).container.querySelector(".chat-markdown")!;
    const chip = screen.getByRole("link", { name: "Assistant quote: the quoted sentence" });
    expect(chip).toHaveAttribute("data-assistant-citation-chip");
    expect(chip.getAttribute("href")).toBe(
      `/env-1/thread-1${formatAssistantCitationHash(formatAssistantCitationHref(citation))}`,
    );
    expect(chip.getAttribute("data-copy-source")).toBe(link);
    expect(chip.getAttribute("data-md-start")).toBe("6");
    expect(chip.getAttribute("data-md-end")).toBe(String(6 + link.length));
    expect(chip.textContent).toBe("❝the quoted sentence");
    expect(root.textContent).toMatch(/^Look: ❝the quoted sentence.* please$/);
  });

  it("never renders a chip for a citation link in assistant output", () => {
    const link = serializeAssistantCitation(citation);
    const root = renderMarkdown(`Look: ${link} please`);
    expect(root.querySelector("a, [data-assistant-citation-chip]")).toBeNull();
    expect(root.textContent).toBe(`Look: ${link} please`);
  });

  it("keeps a malformed citation link as its exact source text", () => {
    const bad = "[Assistant quote](t3-citation://v2/e/t/m?text=x&start=0&end=1&prefix=&suffix=)";
    const root = renderMarkdown(`x ${bad} y`);
    expect(root.querySelector("a, [data-assistant-citation-chip]")).toBeNull();
    expect(root.textContent).toBe(`x ${bad} y`);
  });

  it("does not treat a citation href under another label as a citation", () => {
    const href = formatAssistantCitationHref(citation);
    const root = renderMarkdown(`[click me](${href})`);
    expect(root.querySelector("a, [data-assistant-citation-chip]")).toBeNull();
    expect(root.textContent).toBe(`[click me](${href})`);
  });
});

describe("ChatMarkdown citation links where Markdown sees none (user messages)", () => {
  const link = serializeAssistantCitation(citation);
  const chipsOf = (root: Element) => [...root.querySelectorAll("[data-assistant-citation-chip]")];
  const renderUser = (text: string) =>
    render(<ChatMarkdown text={text} flavor="user" />).container.querySelector(".chat-markdown")!;

  it.each([
    ["a code span", `Use \`x ${link} y\` now`],
    ["a fenced code block", `Before\n\n\`\`\`ts\nconst a = 1; ${link} // b\n\`\`\`\n\nafter`],
    ["an escaped bracket", `See \\${link} here`],
    ["an image", `Look !${link} there`],
    ["raw HTML", `<b>${link}</b> and <div>${link}</div>`],
    ["emphasis", `*${link}* and __${link}__`],
  ])("in %s, each link is a chip on its exact source, as in the composer", (_name, text) => {
    cleanup();
    const root = renderUser(text);
    const chips = chipsOf(root);
    const links = collectAssistantCitations(text);
    expect(chips).toHaveLength(links.length);
    chips.forEach((chip, i) => {
      expect(chip.getAttribute("data-copy-source")).toBe(link);
      expect(chip.getAttribute("data-md-start")).toBe(String(links[i]!.start));
      expect(chip.getAttribute("data-md-end")).toBe(String(links[i]!.end));
    });
    // No raw link text is left on screen.
    expect(root.textContent).not.toContain("t3-citation:");
  });

  it("keeps the code around a chip, unhighlighted, and copies the code with the whole link", () => {
    const root = renderUser(`\`\`\`ts\nconst a = ${link};\n\`\`\``);
    const pre = root.querySelector("pre")!;
    expect(within(pre as HTMLElement).getAllByRole("link")).toHaveLength(1);
    expect(pre.textContent).toMatch(/^const a = ❝the quoted sentence.*;\n?$/);
    expect(pre.querySelector("[data-highlighted]")).toBeNull();
  });

  it("never makes a chip of the same text in assistant output", () => {
    for (const text of [`\`${link}\``, `\\${link}`, `!${link}`, `<b>${link}</b>`]) {
      cleanup();
      const root = renderMarkdown(text);
      expect(chipsOf(root)).toHaveLength(0);
      // (An image is shown as "Image: Assistant quote", never loaded; the rest as written.)
      if (!text.startsWith("!")) expect(root.textContent).toContain(link);
    }
  });

  it("shows as many chips as the kernel finds links, whatever Markdown surrounds them", () => {
    const fragment = fc.constantFrom(
      "`",
      "```\n",
      "\\",
      "!",
      "<b>",
      "</b>",
      "*",
      "_",
      "> ",
      "- ",
      "\n\n",
      "\n",
      " ",
      "text",
      "[",
      "](",
      ")",
      "| a |\n|---|\n| ",
      link,
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        cleanup();
        const text = parts.join("");
        // Known exception: a fenced block's info string (its opening line) is not content, and
        // a link written there is not shown at all.
        fc.pre(!/^[ >*_-]*(`{3,}|~{3,})[^\n]*\[Assistant quote\]\(/m.test(text));
        const root = renderUser(text);
        const expected = collectAssistantCitations(text).map((found) => String(found.start));
        const shown = chipsOf(root).map((chip) => chip.getAttribute("data-md-start"));
        expect(shown).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe("ChatMarkdown block splitting", () => {
  const documents = [
    "# H\n\npara one\n\n- a\n\n- b\n\n1. x\n2. y\n\n> quote\n\n```js\nlet a;\n\n\nlet b;\n```\n\ntail",
    "- item\n\n  continued paragraph\n\n- next\n\nafter",
    "text with ref [x][r]\n\n[r]: https://example.com\n",
    "| a |\n|---|\n| 1 |\n\nline  \nbreak\n\n---\n\n***end***",
    "* outer\n  ```\n  code\n\n  more\n  ```\n* second",
  ];

  // Offsets differ by design, and the unsplit render has "\n" text nodes between top-level blocks.
  const serialize = (root: Element) =>
    [...root.childNodes]
      .filter((node) => !(node.nodeType === Node.TEXT_NODE && node.textContent === "\n"))
      .map((node) => (node instanceof Element ? node.outerHTML : node.textContent))
      .join("")
      .replace(/ data-md-(start|end)="\d+"/g, "");
  function renderBoth(text: string) {
    const split = render(<ChatMarkdown text={text} />).container.querySelector(".chat-markdown")!;
    const whole = render(
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeAutoDirection]}
        components={chatMarkdownComponents}
        urlTransform={markdownUrlTransform}
      >
        {text}
      </Markdown>,
    ).container;
    return { split: serialize(split), whole: serialize(whole) };
  }

  it.each(documents)("renders the same HTML as one unsplit document (%#)", (text) => {
    const { split, whole } = renderBoth(text);
    expect(split).toBe(whole);
  });

  it("renders the same HTML as the unsplit document for generated Markdown", () => {
    const line = fc.constantFrom(
      "para text",
      "- item",
      "* star",
      "2. ordered",
      "  indented",
      "    code-ish",
      "```",
      "~~~ts",
      "> quote",
      "# heading",
      "---",
      "| a | b |",
      "|---|---|",
      "",
      "",
      "<div>",
      "</div>",
      "term  ",
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 16 }), (lines) => {
        const { split, whole } = renderBoth(lines.join("\n"));
        cleanup();
        expect(split).toBe(whole);
      }),
      { numRuns: 80 },
    );
    // 160 jsdom renders: a few seconds alone, longer on a loaded 2-core CI machine.
  }, 60_000);
});
