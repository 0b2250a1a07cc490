import { citationFixture } from "@app/citations/testing";
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AssistantCitationChip } from "../AssistantCitationChip.tsx";
import { chipRange, findCitingChip, isLiveChipRange, messageRow } from "./citingChipTarget.ts";

const cited = citationFixture({
  environmentId: "env",
  threadId: "t1",
  messageId: "m1",
  text: "quoted words",
  start: 4,
  end: 16,
});

afterEach(cleanup);

describe("findCitingChip", () => {
  it("finds the chip citing the same selector, whatever its comment, and no other", () => {
    const sameWordsElsewhere = { ...cited, start: 40, end: 52 };
    const otherMessage = { ...cited, messageId: "m2" };
    render(
      <article data-message-id="u1">
        <AssistantCitationChip citation={sameWordsElsewhere} source="[Assistant quote](x)" />
        <AssistantCitationChip citation={otherMessage} source="[Assistant quote](x)" />
        <AssistantCitationChip
          citation={{ ...cited, comment: "a comment" }}
          source="[Assistant quote](x)"
        />
      </article>,
    );
    const row = messageRow("u1");
    expect(row).not.toBeNull();
    const chips = row!.querySelectorAll("[data-assistant-citation-chip]");
    expect(chips).toHaveLength(3);
    expect(findCitingChip(row!, cited)).toBe(chips[2]);
    expect(findCitingChip(row!, { ...cited, text: "other words" })).toBeNull();
  });

  it("covers the chip with a range that stays live only while the chip is in its message", () => {
    const { unmount } = render(
      <article data-message-id="u1">
        <AssistantCitationChip citation={cited} source="[Assistant quote](x)" />
      </article>,
    );
    const range = chipRange(findCitingChip(messageRow("u1")!, cited)!);
    expect(range.toString()).toContain("quoted words");
    expect(isLiveChipRange(range, "u1")).toBe(true);
    expect(isLiveChipRange(range, "u2")).toBe(false);
    unmount();
    expect(isLiveChipRange(range, "u1")).toBe(false);
  });
});
