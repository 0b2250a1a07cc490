import type { Message } from "@app/protocol";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Timeline, type TimelineHandle } from "./Timeline.tsx";

// jsdom has no layout: give Legend List a viewport so it renders rows (TOOLCHAIN.md).
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(() =>
    DOMRect.fromRect({ width: 800, height: 20000 }),
  );
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(20000);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(800);
  // jsdom has no element scrolling either.
  HTMLElement.prototype.scrollBy = vi.fn();
  HTMLElement.prototype.scrollTo = vi.fn();
});

function msg(
  id: string,
  turnId: string,
  role: Message["role"],
  kind: Message["kind"],
  seq: number,
  text = id,
): Message {
  return {
    id,
    threadId: "t",
    turnId,
    role,
    kind,
    text,
    status: "complete",
    seq,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

const messages = [
  msg("p1", "a", "user", "prompt", 1, "First **question**"),
  msg("g1", "a", "assistant", "progress", 2, "Reading the question"),
  msg("ans1", "a", "assistant", "answer", 3, "The answer"),
  msg("p2", "b", "user", "prompt", 4),
  msg("g2", "b", "assistant", "progress", 5, "Step one"),
  msg("g3", "b", "assistant", "progress", 6, "Step two"),
  msg("ans2", "b", "assistant", "answer", 7, "Second answer"),
];

function renderTimeline(ref = createRef<TimelineHandle>()) {
  const utils = render(
    <div style={{ height: 20000 }}>
      <Timeline
        ref={ref}
        order={messages.map((m) => m.id)}
        messagesById={new Map(messages.map((m) => [m.id, m]))}
        turnsById={new Map()}
        activeTurnId={null}
        reachedStart
        olderLoading={false}
        olderError={null}
        onLoadOlder={() => {}}
      />
    </div>,
  );
  return { ...utils, ref };
}

describe("Timeline", () => {
  it("renders rows with the DOM contract attributes", async () => {
    const { container } = renderTimeline();
    const answer = await waitFor(() => {
      const el = container.querySelector('[data-message-id="ans1"]');
      if (!el) throw new Error("row not rendered yet");
      return el;
    });
    expect(answer).toHaveAttribute("data-role", "assistant");
    expect(answer).toHaveAttribute("data-kind", "answer");
    expect(answer.querySelector('[data-assistant-citation-source="ans1"]')?.textContent).toBe(
      "The answer",
    );
    const prompt = container.querySelector('[data-message-id="p1"]')!;
    expect(prompt).toHaveAttribute("data-role", "user");
    expect(prompt.querySelector("[data-assistant-citation-source]")).toBeNull();
    expect(prompt.querySelector("strong")?.textContent).toBe("question");
    expect(screen.getByText("Beginning of thread")).toBeInTheDocument();
    expect(screen.getAllByRole("button", { name: "Copy message" }).length).toBeGreaterThan(0);
  });

  it("folds progress updates behind a toggle that expands and collapses them", async () => {
    // Legend List disables pointer events until its first layout pass, which jsdom never runs.
    // The toggles are used from the keyboard: a pointer press asks the list to hold where it is
    // (useHoldListOnPress), a scroll request that without layout never completes, and the list
    // then mounts no new rows. A pressed toggle in the browser: e2e/fold.spec.ts.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const activate = async (name: string) => {
      screen.getByRole("button", { name }).focus();
      await user.keyboard("{Enter}");
    };
    const { container } = renderTimeline();
    expect(await screen.findByRole("button", { name: "Show 1 update" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    expect(container.querySelector('[data-message-id="g1"]')).toBeNull();
    await activate("Show 2 updates");
    expect(screen.getByRole("button", { name: "Hide updates" })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    // jsdom never runs Legend List's layout pass, so not every new row gets a container here;
    // one unfolded progress row proves the fold opened (the browser e2e checks all of them).
    await waitFor(() =>
      expect(container.querySelector('[data-kind="progress"]')?.textContent).toMatch(
        /Step (one|two)/,
      ),
    );
    await activate("Hide updates");
    await waitFor(() => expect(container.querySelector('[data-kind="progress"]')).toBeNull());
    expect(screen.getByRole("button", { name: "Show 2 updates" })).toBeInTheDocument();
  });

  it("unfolds a folded message when asked to scroll to it", async () => {
    const { container, ref } = renderTimeline();
    await screen.findByRole("button", { name: "Show 1 update" });
    await act(async () => {
      await ref.current!.scrollToMessage("g1", { animated: false });
    });
    expect(container.querySelector('[data-message-id="g1"]')).not.toBeNull();
    await expect(ref.current!.scrollToMessage("nope")).resolves.toBe(false);
  });

  it("opens placed at a folded message with its turn unfolded (a jump's new session)", async () => {
    const { container } = render(
      <div style={{ height: 20000 }}>
        <Timeline
          order={messages.map((m) => m.id)}
          messagesById={new Map(messages.map((m) => [m.id, m]))}
          turnsById={new Map()}
          activeTurnId={null}
          reachedStart
          olderLoading={false}
          olderError={null}
          onLoadOlder={() => {}}
          placement={{ messageId: "g2", viewPosition: 0.3 }}
        />
      </div>,
    );
    await waitFor(() => {
      if (!container.querySelector('[data-message-id="g2"]')) throw new Error("not yet");
    });
    // The source's turn is unfolded (its toggle offers to hide the updates again).
    expect(
      container.querySelector('[data-row-kind="fold"][data-turn-id="b"] button'),
    ).toHaveAttribute("aria-expanded", "true");
  });

  it("labels message articles by speaker", async () => {
    renderTimeline();
    await screen.findAllByRole("article");
    // Sorted: recycled row containers are not in row order in the DOM.
    const names = (name: string) =>
      screen
        .getAllByRole("article", { name })
        .map((el) => el.getAttribute("data-message-id"))
        .sort();
    expect(names("Assistant")).toEqual(["ans1", "ans2"]);
    expect(names("You")).toEqual(["p1", "p2"]);
  });

  it("puts the Markdown source of whole selected blocks on the clipboard", async () => {
    const { container } = renderTimeline();
    const prompt = await waitFor(() => {
      const el = container.querySelector('[data-message-id="p1"] p');
      if (!el) throw new Error("row not rendered yet");
      return el;
    });
    const range = document.createRange();
    range.selectNodeContents(prompt);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
    const setData = vi.fn();
    fireEvent.copy(prompt, { clipboardData: { setData } });
    expect(setData).toHaveBeenCalledWith("text/plain", "First **question**");

    // Inside one text run the browser's own plain-text copy is kept.
    const text = prompt.querySelector("strong")!.firstChild!;
    range.setStart(text, 1);
    range.setEnd(text, 4);
    setData.mockClear();
    fireEvent.copy(prompt, { clipboardData: { setData } });
    expect(setData).not.toHaveBeenCalled();
  });
});
