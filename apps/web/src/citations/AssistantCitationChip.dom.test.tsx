import {
  type AssistantCitation,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
  parseAssistantCitationHash,
} from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AssistantCitationChip } from "./AssistantCitationChip.tsx";
import {
  AssistantCitationNavigationContext,
  readAssistantCitationActivation,
} from "./navigation/assistantCitationNavigation.ts";

// Ids that need encoding in the chip's href.
const citation = citationFixture({
  environmentId: "env 1",
  threadId: "thread/1",
  messageId: "msg-1",
  text: "a  quoted\nsentence",
  comment: "  why this matters ",
});

afterEach(cleanup);

describe("AssistantCitationChip", () => {
  it("links to the source thread with the encoded citation hash and names itself by the comment", () => {
    render(<AssistantCitationChip citation={citation} source="[Assistant quote](x)" />);
    const chip = screen.getByRole("link", { name: "Assistant quote: why this matters" });
    const url = new URL(chip.getAttribute("href")!, "http://localhost");
    expect(url.pathname).toBe("/env%201/thread%2F1");
    expect(parseAssistantCitationHash(url.hash)).toEqual(citation);
    // The same tooltip as the composer's chip (citationChipText).
    expect(chip.getAttribute("title")).toBe("a  quoted\nsentence\n\nComment: why this matters");
  });

  it("shows the quote beside the comment, describes both, and reads them in full without hover", () => {
    render(<AssistantCitationChip citation={citation} source="[Assistant quote](x)" />);
    const chip = screen.getByRole("link", { name: "Assistant quote: why this matters" });
    // The comment is the label; the quote preview is a separate, secondary part.
    expect(chip.querySelector(".citation-chip__label")).toHaveTextContent("why this matters");
    expect(chip.querySelector(".citation-chip__quote")).toHaveTextContent("a quoted sentence");
    expect(chip).toHaveAccessibleDescription("Quote: a quoted sentence Comment: why this matters");
    const more = screen.getByRole("button", { name: "Show full quote" });
    expect(more).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(more);
    const less = screen.getByRole("button", { name: "Hide full quote" });
    expect(less).toHaveAttribute("aria-expanded", "true");
    const details = document.getElementById(less.getAttribute("aria-controls")!)!;
    expect(details.textContent).toBe("a  quoted\nsentenceComment: why this matters");
    fireEvent.click(less);
    expect(document.getElementById(less.getAttribute("aria-controls")!)).toBeNull();
  });

  it("labels a chip without comment by the quote preview", () => {
    const { comment: _comment, ...plain } = citation;
    render(<AssistantCitationChip citation={plain} source="[Assistant quote](x)" />);
    expect(screen.getByRole("link", { name: "Assistant quote: a quoted sentence" })).toBeTruthy();
  });

  it("navigates through the provided navigator on a plain click, keeps modified clicks native", () => {
    const navigate = vi.fn();
    render(
      <AssistantCitationNavigationContext.Provider value={navigate}>
        <AssistantCitationChip citation={citation} source="[Assistant quote](x)" />
      </AssistantCitationNavigationContext.Provider>,
    );
    const chip = screen.getByRole("link");
    const plain = fireEvent.click(chip);
    expect(plain).toBe(false); // default prevented: no full page load
    expect(navigate).toHaveBeenCalledWith(citation, screen.getByRole("link"));
    const modified = fireEvent.click(chip, { ctrlKey: true });
    expect(modified).toBe(true);
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});

describe("readAssistantCitationActivation", () => {
  const hash = (c: AssistantCitation) =>
    formatAssistantCitationHash(formatAssistantCitationHref(c));

  it("reads the citation and the activation id from state", () => {
    const activation = readAssistantCitationActivation({
      hash: hash(citation).slice(1),
      state: { citationActivation: "a1", __TSR_key: "k" },
    });
    expect(activation).toEqual({ citation, activationId: "a1" });
  });

  it("falls back to the history entry key on a direct load, and ignores other hashes", () => {
    expect(
      readAssistantCitationActivation({ hash: hash(citation), state: { __TSR_key: "k" } })
        ?.activationId,
    ).toBe("entry-k");
    expect(readAssistantCitationActivation({ hash: "#top", state: {} })).toBeNull();
    expect(
      readAssistantCitationActivation({ hash: "assistant-citation=!!", state: {} }),
    ).toBeNull();
  });
});
