import type { Turn, TurnStatus } from "@app/protocol";
import { describe, expect, it } from "vitest";
import { eventStalesThreadList } from "./threadList.ts";

function turn(status: TurnStatus): Turn {
  return {
    id: "turn-1",
    threadId: "thread-1",
    status,
    error: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    completedAt: null,
  };
}

describe("eventStalesThreadList", () => {
  it("refreshes the sidebar once a turn settles, so its message count is current", () => {
    expect(eventStalesThreadList({ type: "turn.updated", turn: turn("completed") })).toBe(true);
    expect(eventStalesThreadList({ type: "turn.updated", turn: turn("failed") })).toBe(true);
    // A stopped turn settles too (issue 21: the sidebar kept "New thread" after Stop).
    expect(eventStalesThreadList({ type: "turn.updated", turn: turn("cancelled") })).toBe(true);
  });

  it("does not refetch while a turn is still running or waiting for the user", () => {
    expect(eventStalesThreadList({ type: "turn.updated", turn: turn("running") })).toBe(false);
    expect(eventStalesThreadList({ type: "turn.updated", turn: turn("waiting_for_input") })).toBe(
      false,
    );
  });
});
