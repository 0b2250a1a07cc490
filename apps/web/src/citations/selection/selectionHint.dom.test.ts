import { describe, expect, it } from "vitest";
import {
  ANSWERS_ONLY_HINT,
  ONE_ANSWER_HINT,
  UNCITABLE_ANSWER_HINT,
  uncitableSelectionHint,
} from "./selectionHint.ts";

function rangeIn(startSelector: string, endSelector: string): Range {
  const range = document.createRange();
  range.setStart(document.querySelector(startSelector)!.firstChild!, 0);
  range.setEnd(document.querySelector(endSelector)!.firstChild!, 1);
  return range;
}

describe("uncitableSelectionHint", () => {
  document.body.innerHTML =
    "<article data-message-id='u' data-role='user'><p id='u1'>mine</p><p id='u2'>also</p></article>" +
    "<article data-message-id='a' data-role='assistant'><p id='a1'>answer</p></article>" +
    "<p id='x'>outside</p>";

  it("says why for two answers, a user message and an uncitable answer", () => {
    expect(uncitableSelectionHint("multiple-responses", rangeIn("#a1", "#a1"))).toBe(
      ONE_ANSWER_HINT,
    );
    expect(uncitableSelectionHint("outside-response", rangeIn("#u1", "#u2"))).toBe(
      ANSWERS_ONLY_HINT,
    );
    expect(uncitableSelectionHint("outside-response", rangeIn("#u1", "#a1"))).toBe(ONE_ANSWER_HINT);
    expect(uncitableSelectionHint("invalid-source", rangeIn("#a1", "#a1"))).toBe(
      UNCITABLE_ANSWER_HINT,
    );
  });

  it("says nothing for blank selections or text outside every message", () => {
    expect(uncitableSelectionHint("empty", rangeIn("#a1", "#a1"))).toBeNull();
    expect(uncitableSelectionHint("blank", rangeIn("#a1", "#a1"))).toBeNull();
    expect(uncitableSelectionHint("outside-response", rangeIn("#x", "#x"))).toBeNull();
  });
});
