import { serializeAssistantCitation } from "@app/citations";
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ChatMarkdown } from "../markdown/ChatMarkdown.tsx";
import { buildRenderedTextStream } from "../renderedText/renderedTextStream.ts";
import { describeMatchRow } from "./findHighlights.ts";
import type { FindMatch } from "./findState.ts";
import { locateMatch, locateMatches, matchOffsets, messageBody } from "./matchRange.ts";
import { findOccurrences } from "./textMatches.ts";

const ANY = { matchCase: false, wholeWords: false };

afterEach(cleanup);

/** Renders a message row the way the timeline does: article > .message__body > Markdown. */
function renderMessage(id: string, text: string, role: "user" | "assistant" = "assistant") {
  const { container } = render(
    <article data-message-id={id} data-role={role}>
      <div
        className="message__body"
        {...(role === "assistant" ? { "data-assistant-citation-source": id } : {})}
      >
        <ChatMarkdown text={text} flavor={role} />
      </div>
      <div className="message__actions" data-text-stream="skip">
        <button type="button">Copy message</button>
      </div>
    </article>,
  );
  const body = messageBody(container, id);
  if (body === null) throw new Error("no body");
  return body;
}

/** The matches the server would send: each occurrence in the body's rendered-text stream. */
function serverMatches(body: Element, id: string, query: string): FindMatch[] {
  const text = buildRenderedTextStream(body).text;
  return findOccurrences(text, query, ANY).map(([start, end], occurrence) => ({
    messageId: id,
    role: "assistant",
    start,
    end,
    occurrence,
  }));
}

const ANSWER = [
  "Here is the **short version**: keep the _hot path_ small and measure `p50` first.",
  "See [the guide](https://example.com/guide) for more.",
  "- read the data once\n- keep an index",
  '```ts\nconst turn100 = await api.sendTurn(threadId, "step 100");\n```',
  "| Step | Cost |\n| --- | ---: |\n| parse | 3 ms |\n| store | 4 ms |",
].join("\n\n");

describe("locateMatch: stream offsets to the words on the page", () => {
  it.each([
    ["bold", "short version"],
    ["emphasis across a boundary", "the hot path small"],
    ["inline code", "p50"],
    ["link text", "the guide"],
    ["list item", "keep an index"],
    ["fenced code", 'api.sendTurn(threadId, "step 100")'],
    ["table cell", "parse"],
    ["half a word", "useThre"],
  ])("finds %s", (_label, query) => {
    const body = renderMessage("a1", `${ANSWER}\n\nuseThread`);
    const [match] = serverMatches(body, "a1", query);
    expect(match).toBeDefined();
    const range = locateMatch(body, match!, { query, options: ANY });
    expect(range?.toString()).toBe(query);
    expect(body.contains(range!.commonAncestorContainer)).toBe(true);
  });

  it("maps a match across table cells and lines with the stream's separators", () => {
    const body = renderMessage("a1", ANSWER);
    const text = buildRenderedTextStream(body).text;
    expect(text).toContain("parse\t3 ms");
    const [match] = serverMatches(body, "a1", "parse\t3 ms");
    const range = locateMatch(body, match!, { query: "parse\t3 ms", options: ANY });
    expect(range).not.toBeNull();
    // The DOM has no text for the cell boundary: the range runs from one cell into the next.
    expect(range!.toString()).toBe("parse3 ms");
    expect(range!.startContainer.parentElement?.closest("td")?.textContent).toBe("parse");
    expect(range!.endContainer.parentElement?.closest("td")?.textContent).toBe("3 ms");
  });

  it("finds words in a user message, around and inside a citation chip", () => {
    const link = serializeAssistantCitation({
      version: 1,
      environmentId: "env",
      threadId: "t1",
      messageId: "a1",
      text: "quoted words",
      start: 0,
      end: 12,
      prefix: "",
      suffix: "",
      comment: "Deep link to turn 100",
    });
    const body = renderMessage("u1", `Compare with ${link} please, then step 100.`, "user");
    const text = buildRenderedTextStream(body).text;
    for (const query of ["Compare with", "please, then step 100"]) {
      const [match] = serverMatches(body, "u1", query);
      expect(locateMatch(body, match!, { query, options: ANY })?.toString()).toBe(query);
    }
    // Whatever the chip shows is searchable text too, and maps back to it.
    const chip = body.querySelector("[data-assistant-citation-chip]");
    expect(chip).not.toBeNull();
    const shown = buildRenderedTextStream(chip!).text.split("\n")[0]!.slice(0, 8);
    expect(text).toContain(shown);
    const [inChip] = serverMatches(body, "u1", shown);
    const range = locateMatch(body, inChip!, { query: shown, options: ANY });
    expect(range?.toString()).toBe(shown);
    expect(chip!.contains(range!.startContainer)).toBe(true);
  });

  it("trusts offsets only when the text there is the query, folding case unless matching case", () => {
    const body = renderMessage("a1", ANSWER);
    const [match] = serverMatches(body, "a1", "short version");
    expect(locateMatch(body, match!, { query: "SHORT Version", options: ANY })?.toString()).toBe(
      "short version",
    );
    const cased = { matchCase: true, wholeWords: false };
    expect(locateMatch(body, match!, { query: "SHORT Version", options: cased })).toBeNull();
  });

  it("falls back to the n-th occurrence when the offsets are off, and never guesses", () => {
    const body = renderMessage("a1", "step one, step two, step three");
    const text = buildRenderedTextStream(body).text;
    const query = { query: "step", options: ANY };
    const shifted: FindMatch = {
      messageId: "a1",
      role: "assistant",
      start: 3,
      end: 7,
      occurrence: 1,
    };
    expect(matchOffsets(text, shifted, query)).toEqual([10, 14]);
    const range = locateMatch(body, shifted, query);
    expect(range?.toString()).toBe("step");
    expect(buildRenderedTextStream(body).text.slice(10, 14)).toBe("step");
    // Offsets beyond the text and no fourth occurrence: nothing, rather than a wrong range.
    const gone: FindMatch = { ...shifted, start: 90, end: 94, occurrence: 3 };
    expect(locateMatch(body, gone, query)).toBeNull();
  });

  it("locates every match of a message with one stream", () => {
    const body = renderMessage("a1", "a step, another step, a last step");
    const matches = serverMatches(body, "a1", "step");
    const ranges = locateMatches(body, matches, { query: "step", options: ANY });
    expect(ranges.map((range) => range.toString())).toEqual(["step", "step", "step"]);
  });
});

describe("describeMatchRow", () => {
  it("describes only the current match's article, keeping its own descriptions", () => {
    const first = renderMessage("a1", "one step here");
    const second = renderMessage("a2", "two step there");
    const firstRow = first.closest("article")!;
    const secondRow = second.closest("article")!;
    firstRow.setAttribute("aria-describedby", "cited-by-a1");
    const [inFirst] = serverMatches(first, "a1", "step");
    const [inSecond] = serverMatches(second, "a2", "step");
    const query = { query: "step", options: ANY };
    describeMatchRow(locateMatch(first, inFirst!, query), "find-desc");
    expect(firstRow.getAttribute("aria-describedby")).toBe("cited-by-a1 find-desc");
    describeMatchRow(locateMatch(second, inSecond!, query), "find-desc");
    expect(firstRow.getAttribute("aria-describedby")).toBe("cited-by-a1");
    expect(secondRow.getAttribute("aria-describedby")).toBe("find-desc");
    describeMatchRow(null, "find-desc");
    expect(secondRow.hasAttribute("aria-describedby")).toBe(false);
  });
});
