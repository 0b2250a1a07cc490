import type { AssistantCitation } from "@app/citations";
import type { Message } from "@app/protocol";
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isMessageUnfolded, resetMessageFolds } from "../timeline/messageFold.ts";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import { CITATION_WARNINGS } from "./AssistantCitationSource.tsx";
import {
  CITATION_HISTORY_LIMIT_WARNING,
  CITATION_HISTORY_PAGE_LIMIT,
  type CitationTargetThread,
  useAssistantCitationTarget,
} from "./useAssistantCitationTarget.ts";

afterEach(() => {
  cleanup();
  resetMessageFolds();
});

const citation: AssistantCitation = {
  version: 1,
  environmentId: "env",
  threadId: "t1",
  messageId: "old",
  text: "quote",
  start: 0,
  end: 5,
  prefix: "",
  suffix: "",
};

function timeline(found = true) {
  const scrollToMessage = vi.fn(async () => found);
  const handle: TimelineHandle = {
    scrollToMessage,
    expandTurn: vi.fn(),
    scrollToEnd: vi.fn(),
    getScrollElement: () => null,
  };
  return { ref: { current: handle }, scrollToMessage };
}

/**
 * A fake paged history: `pagesUntilFound` older pages before the cited message is loaded
 * (Infinity: never), each page moving the cursor on (or not, with `repeatCursor`).
 */
function fakeThread(pagesUntilFound: number, options: { repeatCursor?: boolean } = {}) {
  let loaded = 0;
  const loadOlder = vi.fn(async () => {
    loaded += 1;
  });
  const snapshot = (): CitationTargetThread => ({
    ready: true,
    messagesById: new Map(loaded >= pagesUntilFound ? [["old", {} as Message]] : []),
    reachedStart: false,
    olderCursor: options.repeatCursor ? "c0" : `c${loaded}`,
    olderLoading: false,
    olderErrored: false,
    loadOlder,
  });
  return { snapshot, loadOlder };
}

function run(thread: ReturnType<typeof fakeThread>, handle = timeline()) {
  const activation = { citation, activationId: "a1" };
  const hook = renderHook(
    ({ snapshot }) =>
      useAssistantCitationTarget({
        activation,
        threadId: "t1",
        thread: snapshot,
        timelineRef: handle.ref,
      }),
    { initialProps: { snapshot: thread.snapshot() } },
  );
  return { hook, handle };
}

async function pump(
  hook: { rerender(props: { snapshot: CitationTargetThread }): void },
  thread: ReturnType<typeof fakeThread>,
  times: number,
) {
  for (let i = 0; i < times; i++) {
    await act(async () => {
      hook.rerender({ snapshot: thread.snapshot() });
    });
  }
}

describe("useAssistantCitationTarget", () => {
  it("pages back until the message is loaded, then positions and pins it", async () => {
    const thread = fakeThread(3);
    const { hook, handle } = run(thread);
    expect(hook.result.current.positioning).toBe(true);
    expect(hook.result.current.dataVersion).toBe("a1");
    await pump(hook, thread, 5);
    expect(thread.loadOlder).toHaveBeenCalledTimes(3);
    expect(handle.scrollToMessage).toHaveBeenCalledWith("old", expect.any(Object));
    expect(hook.result.current.phase).toBe("revealing");
    expect(hook.result.current.pinnedMessageIds).toEqual(["old"]);
    act(() => hook.result.current.onSettled(null));
    expect(hook.result.current.phase).toBe("settled");
    expect(hook.result.current.positioning).toBe(false);
    expect(hook.result.current.warning).toBeNull();
  });

  it("unfolds the source message (a folded long message) before scrolling to it", async () => {
    const thread = fakeThread(1);
    const handle = timeline();
    handle.scrollToMessage.mockImplementation(async () => {
      // By the time the timeline is asked to scroll, the cited words are no longer clipped.
      expect(isMessageUnfolded("old")).toBe(true);
      return true;
    });
    const { hook } = run(thread, handle);
    expect(isMessageUnfolded("old")).toBe(false);
    await pump(hook, thread, 3);
    expect(handle.scrollToMessage).toHaveBeenCalledTimes(1);
    expect(hook.result.current.phase).toBe("revealing");
  });

  it(`stops after ${CITATION_HISTORY_PAGE_LIMIT} pages with a warning`, async () => {
    const thread = fakeThread(Number.POSITIVE_INFINITY);
    const { hook } = run(thread);
    await pump(hook, thread, CITATION_HISTORY_PAGE_LIMIT + 5);
    expect(thread.loadOlder).toHaveBeenCalledTimes(CITATION_HISTORY_PAGE_LIMIT);
    expect(hook.result.current.warning).toBe(CITATION_HISTORY_LIMIT_WARNING);
    expect(hook.result.current.positioning).toBe(false);
  });

  it("stops on a repeated cursor", async () => {
    const thread = fakeThread(Number.POSITIVE_INFINITY, { repeatCursor: true });
    const { hook } = run(thread);
    await pump(hook, thread, 4);
    expect(thread.loadOlder).toHaveBeenCalledTimes(1);
    expect(hook.result.current.warning).toBe(CITATION_HISTORY_LIMIT_WARNING);
  });

  it("warns that the message is gone once the start of the thread is loaded", async () => {
    const thread = fakeThread(Number.POSITIVE_INFINITY);
    const handle = timeline();
    const hook = renderHook(() =>
      useAssistantCitationTarget({
        activation: { citation, activationId: "a2" },
        threadId: "t1",
        thread: { ...thread.snapshot(), reachedStart: true, olderCursor: null },
        timelineRef: handle.ref,
      }),
    );
    await act(async () => {});
    expect(hook.result.current.warning).toBe(CITATION_WARNINGS.missing);
    expect(thread.loadOlder).not.toHaveBeenCalled();
  });

  it("cancels pending positioning on user navigation", async () => {
    const thread = fakeThread(Number.POSITIVE_INFINITY);
    thread.loadOlder.mockImplementation(() => new Promise(() => {}));
    const { hook } = run(thread);
    expect(hook.result.current.positioning).toBe(true);
    act(() => {
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    expect(hook.result.current.phase).toBe("cancelled");
    expect(hook.result.current.positioning).toBe(false);
  });
});
