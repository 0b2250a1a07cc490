import { citationFixture } from "@app/citations/testing";
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isMessageUnfolded, resetMessageFolds } from "../timeline/messageFold.ts";
import type { TimelineHandle } from "../timeline/Timeline.tsx";
import {
  type CitationTargetThread,
  useAssistantCitationTarget,
} from "./useAssistantCitationTarget.ts";

afterEach(() => {
  cleanup();
  resetMessageFolds();
});

const citation = citationFixture({
  environmentId: "env",
  threadId: "t1",
  messageId: "long-answer",
});

const timeline: TimelineHandle = {
  scrollToMessage: vi.fn(async () => true),
  expandTurn: vi.fn(),
  scrollToEnd: vi.fn(),
  holdFollowing: vi.fn(),
  revealRange: vi.fn(),
  placeMessage: vi.fn(() => false),
  placeMessageAt: vi.fn(() => false),
  getScrollElement: () => null,
};

describe("useAssistantCitationTarget and long messages", () => {
  it("unfolds the source message (a folded long message) when it places the source", async () => {
    const unfoldedWhenShown: boolean[] = [];
    const thread: CitationTargetThread = {
      ready: true,
      isLoaded: () => true,
      loadAround: vi.fn(async () => ({ status: "loaded" as const })),
      showMessage: vi.fn(() => {
        // By the time the timeline is asked to show the source, its words are not clipped.
        unfoldedWhenShown.push(isMessageUnfolded("long-answer"));
      }),
    };
    expect(isMessageUnfolded("long-answer")).toBe(false);
    const hook = renderHook(() =>
      useAssistantCitationTarget({
        activation: { citation, activationId: "a1" },
        thread,
        timelineRef: { current: timeline },
      }),
    );
    await act(async () => {});
    expect(isMessageUnfolded("long-answer")).toBe(true);
    expect(unfoldedWhenShown).toEqual([true]);
    expect(hook.result.current.revealing).toBe(true);
  });
});
