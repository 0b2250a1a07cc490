import type { AssistantCitation } from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { cleanup, render, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AssistantCitationSource } from "./AssistantCitationSource.tsx";
import { createCitationHighlightClocks } from "./citationHighlightClocks.ts";
import { NAVIGATION_WARNINGS } from "./navigationMachine.ts";

const clocks = createCitationHighlightClocks();

afterEach(() => {
  cleanup();
  document.getSelection()?.removeAllRanges();
});

function citationFor(text: string, extra: Partial<AssistantCitation> = {}): AssistantCitation {
  return citationFixture({ environmentId: "env", threadId: "t1", messageId: "m1", text, ...extra });
}

/** jsdom has no layout: the timeline's scrolling (TimelineHandle.revealRange) runs in e2e. */
function revealInElement(range: Range) {
  range.startContainer.parentElement?.setAttribute("data-revealed", "true");
}

function Row({ text }: { text: string }) {
  return (
    <article data-message-id="m1">
      <div data-assistant-citation-source="m1">
        <p>{text}</p>
      </div>
    </article>
  );
}

function renderSource(text: string, citation: AssistantCitation, activationId: string) {
  const onSettled = vi.fn();
  const view = render(
    <>
      <Row text={text} />
      <AssistantCitationSource
        citation={citation}
        clock={clocks.clockFor(activationId)}
        getScrollElement={() => null}
        revealRange={revealInElement}
        onSettled={onSettled}
      />
    </>,
  );
  return { ...view, onSettled };
}

const row = () => document.querySelector("[data-message-id]")!;

/** A row whose elements the timeline reuses for another message when it scrolls away. */
function ReusedRow({ id, text }: { id: string; text: string }) {
  return (
    <article data-message-id={id}>
      <div data-assistant-citation-source={id}>
        <p>{text}</p>
      </div>
    </article>
  );
}

describe("AssistantCitationSource (no Highlight API: owned selection fallback)", () => {
  it("selects only the cited text, marks the row, and settles without warning", async () => {
    const { onSettled } = renderSource(
      "Alpha beta gamma delta.",
      citationFor("beta gamma", { start: 6, prefix: "Alpha ", suffix: " delta." }),
      "s1",
    );
    await waitFor(() => expect(onSettled).toHaveBeenCalledWith(null));
    expect(document.getSelection()?.toString()).toBe("beta gamma");
    expect(row().getAttribute("data-citation-highlighted")).toBe("true");
  });

  it("Escape dismisses it for good: a remount of the same activation does not revive it", async () => {
    const citation = citationFor("beta", { start: 6 });
    const first = renderSource("Alpha beta.", citation, "s2");
    await waitFor(() => expect(first.onSettled).toHaveBeenCalled());
    document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    expect(document.getSelection()?.toString()).toBe("");
    expect(row().hasAttribute("data-citation-highlighted")).toBe(false);
    expect(clocks.clockFor("s2").finished).toBe(true);
    first.unmount();
    const again = renderSource("Alpha beta.", citation, "s2");
    await waitFor(() => expect(again.onSettled).toHaveBeenCalledWith(null));
    expect(document.getSelection()?.toString()).toBe("");
    expect(row().hasAttribute("data-citation-highlighted")).toBe(false);
  });

  it("leaves a selection the user made afterwards alone when it ends", async () => {
    const view = renderSource("Alpha beta.", citationFor("Alpha"), "s3");
    await waitFor(() => expect(view.onSettled).toHaveBeenCalled());
    const mine = document.createRange();
    mine.selectNodeContents(document.querySelector("p")!);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(mine);
    // Drop only the highlighter; the row stays.
    view.rerender(<Row text="Alpha beta." />);
    expect(document.getSelection()?.toString()).toBe("Alpha beta.");
  });

  it("a remount does not select the quote again over the user's newer selection", async () => {
    // Regression against the original product's expected behaviour.
    const citation = citationFor("beta", { start: 6 });
    const onSettled = vi.fn();
    const source = (key: string) => (
      <AssistantCitationSource
        key={key}
        citation={citation}
        clock={clocks.clockFor("s9")}
        getScrollElement={() => null}
        revealRange={revealInElement}
        onSettled={onSettled}
      />
    );
    const view = render(
      <>
        <Row text="Alpha beta." />
        {source("first")}
      </>,
    );
    await waitFor(() => expect(onSettled).toHaveBeenCalledWith(null));
    expect(document.getSelection()?.toString()).toBe("beta");
    const text = document.querySelector("p")!.firstChild!;
    document.getSelection()!.setBaseAndExtent(text, 0, text, 5);
    // Only the highlighter remounts (same activation: the clock resumes).
    view.rerender(
      <>
        <Row text="Alpha beta." />
        {source("second")}
      </>,
    );
    await waitFor(() => expect(onSettled).toHaveBeenCalledTimes(2));
    expect(document.getSelection()?.toString()).toBe("Alpha");
    expect(row().getAttribute("data-citation-highlighted")).toBe("true");
  });

  it("follows the text when the row re-renders, keeping the highlight", async () => {
    const citation = citationFor("beta", { start: 6 });
    const onSettled = vi.fn();
    const source = (
      <AssistantCitationSource
        citation={citation}
        clock={clocks.clockFor("s6")}
        getScrollElement={() => null}
        revealRange={revealInElement}
        onSettled={onSettled}
      />
    );
    const view = render(
      <>
        <Row key="a" text="Alpha beta." />
        {source}
      </>,
    );
    await waitFor(() => expect(onSettled).toHaveBeenCalledWith(null));
    const before = document.getSelection()!.getRangeAt(0).startContainer;
    // A new key replaces the row's DOM, as a remount of a virtualized row would.
    view.rerender(
      <>
        <Row key="b" text="Alpha beta." />
        {source}
      </>,
    );
    await waitFor(() => {
      const range = document.getSelection()!.getRangeAt(0);
      expect(range.startContainer).not.toBe(before);
      expect(range.startContainer.isConnected).toBe(true);
    });
    expect(document.getSelection()?.toString()).toBe("beta");
    expect(row().getAttribute("data-citation-highlighted")).toBe("true");
  });

  it("takes the highlight off while its row shows another message, and restores it", async () => {
    const onSettled = vi.fn();
    const source = (
      <AssistantCitationSource
        citation={citationFor("beta", { start: 6 })}
        clock={clocks.clockFor("s7")}
        getScrollElement={() => null}
        revealRange={revealInElement}
        onSettled={onSettled}
      />
    );
    const view = render(
      <>
        <ReusedRow id="m1" text="Alpha beta." />
        {source}
      </>,
    );
    await waitFor(() => expect(onSettled).toHaveBeenCalledWith(null));
    expect(document.getSelection()?.toString()).toBe("beta");
    const paragraph = document.querySelector("p")!;
    view.rerender(
      <>
        <ReusedRow id="m2" text="Other words entirely." />
        {source}
      </>,
    );
    expect(document.querySelector("p")).toBe(paragraph); // the same elements, reused
    await waitFor(() => expect(document.getSelection()?.toString()).toBe(""));
    expect(row().hasAttribute("data-citation-highlighted")).toBe(false);
    view.rerender(
      <>
        <ReusedRow id="m1" text="Alpha beta." />
        {source}
      </>,
    );
    await waitFor(() => expect(document.getSelection()?.toString()).toBe("beta"));
    expect(row().getAttribute("data-citation-highlighted")).toBe("true");
  });

  it("warns when the text changed or appears more than once, without touching the quote", async () => {
    const changed = citationFor("not there");
    const a = renderSource("Alpha beta.", changed, "s4");
    await waitFor(() => expect(a.onSettled).toHaveBeenCalledWith(NAVIGATION_WARNINGS.changed));
    expect(changed.text).toBe("not there");
    a.unmount();
    const b = renderSource("echo and echo", citationFor("echo"), "s5");
    await waitFor(() => expect(b.onSettled).toHaveBeenCalledWith(NAVIGATION_WARNINGS.ambiguous));
    expect(document.getSelection()?.toString()).toBe("");
  });
});
