import { afterEach, describe, expect, it } from "vitest";
import { isLiveSourceRange, sourceMessageOf } from "./liveSourceRange.ts";

afterEach(() => {
  document.body.innerHTML = "";
});

/** A message body as the timeline renders it, and a range over part of its text. */
function cited(messageId: string): { body: HTMLElement; range: Range } {
  document.body.innerHTML = `<article><div data-assistant-citation-source="${messageId}"><p>Alpha beta gamma.</p></div></article>`;
  const body = document.querySelector<HTMLElement>("[data-assistant-citation-source]")!;
  const text = body.querySelector("p")!.firstChild!;
  const range = document.createRange();
  range.setStart(text, 6);
  range.setEnd(text, 10);
  return { body, range };
}

describe("isLiveSourceRange", () => {
  it("is live while the range covers text of its message", () => {
    const { range } = cited("m1");
    expect(sourceMessageOf(range)).toBe("m1");
    expect(isLiveSourceRange(range)).toBe(true);
    expect(isLiveSourceRange(range, "m1")).toBe(true);
  });

  it("is not live once the row is reused for another message, though still connected", () => {
    const { body, range } = cited("m1");
    // The list recycles the row: same elements, another message.
    body.setAttribute("data-assistant-citation-source", "m2");
    expect(isLiveSourceRange(range)).toBe(true);
    expect(isLiveSourceRange(range, "m1")).toBe(false);
  });

  it("is not live when its text is gone or the range collapsed", () => {
    const { body, range } = cited("m1");
    const collapsed = range.cloneRange();
    collapsed.collapse(true);
    expect(isLiveSourceRange(collapsed, "m1")).toBe(false);
    body.remove();
    expect(isLiveSourceRange(range, "m1")).toBe(false);
  });
});
