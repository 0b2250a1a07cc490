import type { Message } from "@app/protocol";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import {
  estimateRenderedLines,
  FOLD_AFTER_LINES,
  isLongMessage,
  isMessageUnfolded,
  keepStreamedMessageUnfolded,
  resetMessageFolds,
  unfoldMessage,
} from "./messageFold.ts";
import { TimelineRowView } from "./TimelineRowView.tsx";
import type { TimelineRow } from "./timelineRows.ts";

afterEach(() => resetMessageFolds());

const lines = (count: number, prefix = "Line") =>
  Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join("\n");

function messageRow(text: string, overrides: Partial<Message> = {}): TimelineRow {
  const message: Message = {
    id: "m1",
    threadId: "t1",
    turnId: "turn1",
    role: "assistant",
    kind: "answer",
    text,
    status: "complete",
    seq: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
  return { kind: "message", key: message.id, message, folded: false };
}

describe("estimateRenderedLines", () => {
  it("counts wrapped lines, one per fenced code line, nothing for blank lines", () => {
    expect(estimateRenderedLines("short", 90)).toBe(1);
    expect(estimateRenderedLines("x".repeat(181), 90)).toBe(3);
    expect(estimateRenderedLines("a\n\n\nb", 90)).toBe(2);
    // Fence lines count one each, however long (code scrolls sideways).
    expect(estimateRenderedLines(`\`\`\`ts\n${"y".repeat(500)}\n\`\`\``, 90)).toBe(3);
  });

  it("stops early past the limit, so a 120,000-character prompt costs no more than a short one", () => {
    const huge = "word ".repeat(24_000);
    expect(estimateRenderedLines(huge, 75, 25)).toBe(Math.ceil(huge.length / 75));
    const manyLines = lines(50_000);
    expect(estimateRenderedLines(manyLines, 75, 25)).toBe(26);
  });
});

describe("isLongMessage", () => {
  it("folds messages over 25 estimated lines, for users and assistants alike", () => {
    expect(isLongMessage("assistant", lines(FOLD_AFTER_LINES))).toBe(false);
    expect(isLongMessage("assistant", lines(FOLD_AFTER_LINES + 1))).toBe(true);
    expect(isLongMessage("user", lines(FOLD_AFTER_LINES + 1))).toBe(true);
    // One paragraph of 120,000 characters.
    expect(isLongMessage("user", "a".repeat(120_000))).toBe(true);
    // The user bubble is narrower: the same paragraph wraps to more lines there.
    const paragraph = "z".repeat(80 * 24);
    expect(isLongMessage("assistant", paragraph)).toBe(false);
    expect(isLongMessage("user", paragraph)).toBe(true);
  });
});

describe("folding a message row", () => {
  it("clips a long message, keeps its whole text in the DOM, and toggles Show more / Show less", () => {
    const text = lines(40, "Paragraph");
    render(<TimelineRowView row={messageRow(text)} />);
    const article = document.querySelector("[data-message-id='m1']")!;
    const body = article.querySelector("[data-assistant-citation-source='m1']")!;
    expect(article.getAttribute("data-long-message")).toBe("folded");
    expect(body.querySelector(".chat-markdown--folded")).not.toBeNull();
    expect(body.textContent).toContain("Paragraph 40");

    const more = screen.getByRole("button", { name: "Show more" });
    expect(more).toHaveAttribute("aria-expanded", "false");
    expect(more).toHaveAttribute("aria-controls", body.id);
    // The toggle is a control outside the body: never part of the rendered text or a quote.
    expect(body.contains(more)).toBe(false);
    expect(more.closest("[data-text-stream='skip']")).not.toBeNull();

    fireEvent.click(more);
    expect(article.getAttribute("data-long-message")).toBe("unfolded");
    expect(body.querySelector(".chat-markdown--folded")).toBeNull();
    const less = screen.getByRole("button", { name: "Show less" });
    expect(less).toHaveAttribute("aria-expanded", "true");
    fireEvent.click(less);
    expect(article.getAttribute("data-long-message")).toBe("folded");
  });

  it("leaves short messages alone", () => {
    render(<TimelineRowView row={messageRow(lines(10))} />);
    expect(document.querySelector("[data-long-message]")).toBeNull();
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
  });

  it("unfolds when navigation calls unfoldMessage, also for a row mounted later", () => {
    const text = lines(40);
    const { unmount } = render(<TimelineRowView row={messageRow(text)} />);
    act(() => unfoldMessage("m1"));
    expect(screen.getByRole("button", { name: "Show less" })).toBeInTheDocument();
    unmount();
    render(<TimelineRowView row={messageRow(text)} />);
    expect(document.querySelector("[data-long-message]")?.getAttribute("data-long-message")).toBe(
      "unfolded",
    );
  });

  it("never folds a streaming message, and keeps one the reader watched stream in open", () => {
    const text = lines(40);
    const { rerender } = render(
      <TimelineRowView row={messageRow(text, { status: "streaming" })} />,
    );
    expect(document.querySelector("[data-long-message]")).toBeNull();
    expect(isMessageUnfolded("m1")).toBe(true);
    rerender(<TimelineRowView row={messageRow(text)} />);
    expect(document.querySelector("[data-long-message]")?.getAttribute("data-long-message")).toBe(
      "unfolded",
    );
  });

  it("folds a message completed before it was shown (opened later, reloaded)", () => {
    keepStreamedMessageUnfolded("other");
    render(<TimelineRowView row={messageRow(lines(40), { role: "user", kind: "prompt" })} />);
    expect(document.querySelector("[data-long-message]")?.getAttribute("data-long-message")).toBe(
      "folded",
    );
  });
});
