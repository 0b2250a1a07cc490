import { citationLinkFixture } from "@app/citations/testing";
import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ChatMarkdown } from "../markdown/ChatMarkdown.tsx";
import { selectionToMarkdown } from "./selectionMarkdown.ts";

const source =
  "Intro with **bold** and `code`.\n\n- one\n- two\n\n```js\nlet x = 1;\n```\n\nLast *line*.";

function setup(text = source) {
  const { container } = render(
    <div data-message-id="m1">
      <ChatMarkdown text={text} />
    </div>,
  );
  const getSource = (id: string) => (id === "m1" ? text : null);
  return { container, getSource };
}

function select(start: [Node, number], end: [Node, number]): Selection {
  const selection = window.getSelection()!;
  const range = document.createRange();
  range.setStart(...start);
  range.setEnd(...end);
  selection.removeAllRanges();
  selection.addRange(range);
  return selection;
}

const textNode = (el: Element | null, index = 0) => {
  const walker = document.createTreeWalker(el!, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  for (let i = 0; i < index; i++) node = walker.nextNode();
  return node!;
};

describe("selectionToMarkdown", () => {
  it("keeps plain text for a selection inside one text run", () => {
    const { container, getSource } = setup();
    const text = textNode(container.querySelector("p"));
    expect(selectToMd(container, getSource, [text, 0], [text, 5])).toBeNull();
  });

  it("copies a whole paragraph as its Markdown source", () => {
    const { container, getSource } = setup();
    const p = container.querySelector("p")!;
    const last = textNode(p, 4);
    expect(
      selectToMd(container, getSource, [textNode(p), 0], [last, last.textContent!.length]),
    ).toBe("Intro with **bold** and `code`.");
  });

  it("copies everything from a list to the end as source, without the Copy code label", () => {
    const { container, getSource } = setup();
    const lastP = container.querySelectorAll("p")[1]!;
    const end = textNode(lastP, 2);
    const md = selectToMd(
      container,
      getSource,
      [textNode(container.querySelector("li")), 0],
      [end, 1],
    );
    expect(md).toBe("- one\n- two\n\n```js\nlet x = 1;\n```\n\nLast *line*.");
  });

  it("mixes the selected tail of a paragraph with following whole blocks", () => {
    const { container, getSource } = setup();
    const p = container.querySelector("p")!;
    const tail = textNode(p, 4); // "."
    const li2 = container.querySelectorAll("li")[1]!;
    const md = selectToMd(container, getSource, [tail, 0], [textNode(li2), 3]);
    expect(md).toBe(".\n\n- one\n- two");
  });

  it("copies a whole message selection as the full source", () => {
    const { container, getSource } = setup();
    const body = container.querySelector(".chat-markdown")!;
    expect(selectToMd(container, getSource, [body, 0], [body, body.childNodes.length])).toBe(
      source,
    );
  });
});

describe("selectionToMarkdown with a sent citation chip", () => {
  const link = citationLinkFixture({ text: "cited words", comment: "my note" });
  const text = `See ${link} and more.\n\nNext paragraph.`;

  function setupUser() {
    const { container } = render(
      <div data-message-id="u1">
        <ChatMarkdown text={text} flavor="user" />
      </div>,
    );
    return { container, getSource: (id: string) => (id === "u1" ? text : null) };
  }

  it("copies a partly selected paragraph with the chip as its link, not its label", () => {
    const { container, getSource } = setupUser();
    const p = container.querySelector("p")!;
    expect(p.querySelector("[data-assistant-citation-chip]")).not.toBeNull();
    // " and more.", the text after the chip group (chip, description, "Show full quote").
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    let after: Text | null = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent === " and more.") after = node as Text;
    }
    if (after === null) throw new Error('no " and more." text node');
    expect(selectToMd(container, getSource, [textNode(p), 2], [after, 4])).toBe(`e ${link} and`);
  });

  it("copies the chip's link when the selection starts inside its label", () => {
    const { container, getSource } = setupUser();
    const label = container.querySelector(".citation-chip__label")!;
    const next = container.querySelectorAll("p")[1]!;
    const md = selectToMd(
      container,
      getSource,
      [textNode(label), 2],
      [textNode(next), "Next paragraph.".length],
    );
    expect(md).toBe(`${link} and more.\n\nNext paragraph.`);
  });
});

function selectToMd(
  container: Element,
  getSource: (id: string) => string | null,
  start: [Node, number],
  end: [Node, number],
) {
  return selectionToMarkdown(select(start, end), container, getSource);
}
