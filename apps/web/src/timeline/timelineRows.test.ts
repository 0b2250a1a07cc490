import type { Message, Turn } from "@app/protocol";
import { describe, expect, it } from "vitest";
import {
  buildTimelineRows,
  foldedTurnOf,
  foldLabel,
  rowSizeClass,
  type TimelineRow,
  type TimelineRowsInput,
} from "./timelineRows.ts";

function msg(
  id: string,
  turnId: string,
  role: Message["role"],
  kind: Message["kind"],
  seq: number,
): Message {
  return {
    id,
    threadId: "t",
    turnId,
    role,
    kind,
    text: id,
    status: "complete",
    seq,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

const turn = (id: string, status: Turn["status"], error: Turn["error"] = null): Turn => ({
  id,
  threadId: "t",
  status,
  error,
  createdAt: "2026-01-01T00:00:00.000Z",
  completedAt: null,
});

function input(messages: Message[], overrides: Partial<TimelineRowsInput> = {}): TimelineRowsInput {
  return {
    order: messages.map((m) => m.id),
    messagesById: new Map(messages.map((m) => [m.id, m])),
    turnsById: new Map(),
    expandedTurns: new Set(),
    activeTurnId: null,
    ...overrides,
  };
}

const messages = [
  msg("p1", "a", "user", "prompt", 1),
  msg("g1", "a", "assistant", "progress", 2),
  msg("g2", "a", "assistant", "progress", 3),
  msg("ans1", "a", "assistant", "answer", 4),
  msg("p2", "b", "user", "prompt", 5),
  msg("ans2", "b", "assistant", "answer", 6),
];

describe("buildTimelineRows", () => {
  it("folds every assistant message but the last one of a turn behind one toggle", () => {
    expect(buildTimelineRows(input(messages)).map((r) => r.key)).toEqual([
      "p1",
      "fold:a",
      "ans1",
      "p2",
      "ans2",
    ]);
    const expanded = buildTimelineRows(input(messages, { expandedTurns: new Set(["a"]) }));
    expect(expanded.map((r) => r.key)).toEqual(["p1", "fold:a", "g1", "g2", "ans1", "p2", "ans2"]);
    expect(expanded[1]).toMatchObject({ kind: "fold", count: 2, expanded: true });
  });

  it("always shows error messages and adds a row for a failed turn without one", () => {
    const failed = [msg("p1", "a", "user", "prompt", 1), msg("e1", "a", "assistant", "error", 2)];
    expect(buildTimelineRows(input(failed)).map((r) => r.key)).toEqual(["p1", "e1"]);
    const rows = buildTimelineRows(
      input([msg("p1", "a", "user", "prompt", 1)], {
        turnsById: new Map([
          ["a", turn("a", "failed", { code: "provider_error", message: "Model down" })],
        ]),
      }),
    );
    expect(rows.at(-1)).toMatchObject({ kind: "turn-error", error: { message: "Model down" } });
  });

  it("marks the reply of a stopped, failed or interrupted turn with its outcome, once", () => {
    const stopped = buildTimelineRows(
      input(messages, { turnsById: new Map([["b", turn("b", "cancelled")]]) }),
    );
    expect(stopped.find((r) => r.key === "ans2")).toMatchObject({
      outcome: { status: "cancelled", reason: null },
    });
    // Only the reply: the turn's prompt and the other turn's answer carry nothing.
    expect(stopped.filter((r) => r.kind === "message" && r.outcome).map((r) => r.key)).toEqual([
      "ans2",
    ]);
    expect(
      buildTimelineRows(
        input(messages, { turnsById: new Map([["b", turn("b", "completed")]]) }),
      ).find((r) => r.key === "ans2"),
    ).not.toHaveProperty("outcome");

    // A failed turn without an error notice: the reason goes on the reply's marker, not in a
    // second row.
    const down = { code: "provider_error", message: "Model down" };
    const failed = buildTimelineRows(
      input(messages, { turnsById: new Map([["b", turn("b", "failed", down)]]) }),
    );
    expect(failed.find((r) => r.key === "ans2")).toMatchObject({
      outcome: { status: "failed", reason: "Model down" },
    });
    expect(failed.some((r) => r.kind === "turn-error")).toBe(false);

    // Interrupted, with its notice row: the marker names the outcome, the notice the reason.
    const cut = { code: "interrupted", message: "The server stopped." };
    const withNotice = [...messages, msg("e2", "b", "assistant", "error", 7)];
    const interrupted = buildTimelineRows(
      input(withNotice, { turnsById: new Map([["b", turn("b", "failed", cut)]]) }),
    );
    expect(interrupted.find((r) => r.key === "ans2")).toMatchObject({
      outcome: { status: "interrupted", reason: null },
    });
    expect(interrupted.at(-1)).toMatchObject({ key: "e2" });
    expect(interrupted.at(-1)).not.toHaveProperty("outcome");
  });

  it("shows a turn stopped or failed before any reply as its own outcome row", () => {
    const prompt = [msg("p1", "a", "user", "prompt", 1)];
    expect(
      buildTimelineRows(input(prompt, { turnsById: new Map([["a", turn("a", "cancelled")]]) })).at(
        -1,
      ),
    ).toMatchObject({ kind: "turn-outcome", outcome: { status: "cancelled" } });
    const onlyNotice = [...prompt, msg("e1", "a", "assistant", "error", 2)];
    const cut = { code: "interrupted", message: "The server stopped." };
    expect(
      buildTimelineRows(
        input(onlyNotice, { turnsById: new Map([["a", turn("a", "failed", cut)]]) }),
      ).at(-1),
    ).toMatchObject({ key: "e1", outcome: { status: "interrupted", reason: null } });
    const down = { code: "provider_error", message: "Model down" };
    expect(
      buildTimelineRows(
        input(prompt, { turnsById: new Map([["a", turn("a", "failed", down)]]) }),
      ).at(-1),
    ).toMatchObject({ kind: "turn-error", outcome: { status: "failed", reason: "Model down" } });
  });

  it("shows a working row for an active turn that has no reply yet", () => {
    const rows = buildTimelineRows(
      input([msg("p1", "a", "user", "prompt", 1)], {
        turnsById: new Map([["a", turn("a", "running")]]),
        activeTurnId: "a",
      }),
    );
    expect(rows.map((r) => r.key)).toEqual(["p1", "working:a"]);
    const waiting = buildTimelineRows(
      input([msg("p1", "a", "user", "prompt", 1), msg("g1", "a", "assistant", "progress", 2)], {
        turnsById: new Map([["a", turn("a", "waiting_for_input")]]),
        activeTurnId: "a",
      }),
    );
    expect(waiting.at(-1)).toMatchObject({ kind: "working", waitingForInput: true });
  });

  it("reuses unchanged row objects so memoized rows skip rendering", () => {
    const first = buildTimelineRows(input(messages));
    const changed = messages.map((m) => (m.id === "ans2" ? { ...m, text: "new" } : m));
    const second = buildTimelineRows(input(changed), first);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[4]).not.toBe(first[4]);
  });

  it("finds the turn whose fold hides a message", () => {
    const rows = buildTimelineRows(input(messages));
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(foldedTurnOf("g2", rows, byId)).toBe("a");
    expect(foldedTurnOf("ans1", rows, byId)).toBeNull();
    expect(foldedTurnOf("missing", rows, byId)).toBeNull();
  });

  it("labels the toggle with correct plurals", () => {
    expect(foldLabel(1, false)).toBe("Show 1 update");
    expect(foldLabel(3, false)).toBe("Show 3 updates");
    expect(foldLabel(3, true)).toBe("Hide updates");
  });
});

describe("rowSizeClass", () => {
  const row = (message: Message): TimelineRow => ({
    kind: "message",
    key: message.id,
    message,
    folded: false,
  });
  const withText = (
    text: string,
    role: Message["role"] = "assistant",
    kind: Message["kind"] = "answer",
  ) => ({
    ...msg("m", "t1", role, kind, 1),
    text,
  });

  it("classes other rows by their kind", () => {
    expect(
      rowSizeClass({ kind: "fold", key: "fold:t", turnId: "t", count: 2, expanded: false }),
    ).toBe("fold");
    expect(
      rowSizeClass({ kind: "working", key: "working:t", turnId: "t", waitingForInput: false }),
    ).toBe("working");
  });

  it("separates roles and kinds, so a prompt is not estimated at an answer's height", () => {
    const text = "Same words";
    const classes = new Set([
      rowSizeClass(row(withText(text, "user", "prompt"))),
      rowSizeClass(row(withText(text, "assistant", "answer"))),
      rowSizeClass(row(withText(text, "assistant", "progress"))),
    ]);
    expect(classes.size).toBe(3);
  });

  it("groups texts by rough line count in half-octave steps", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\n");
    expect(rowSizeClass(row(withText(lines(10))))).toBe(rowSizeClass(row(withText(lines(11)))));
    expect(rowSizeClass(row(withText(lines(10))))).not.toBe(rowSizeClass(row(withText(lines(20)))));
    // A long paragraph wraps: it counts as the lines it fills, not as one.
    expect(rowSizeClass(row(withText("x".repeat(90 * 20))))).toBe(
      rowSizeClass(row(withText(lines(20)))),
    );
    expect(rowSizeClass(row(withText("")))).toBe(rowSizeClass(row(withText("one line"))));
  });

  it("classes a plain prompt by its exact wrapped line count once prompt metrics are known", () => {
    const metrics = (maxWidth: number) => ({
      key: `mono|${maxWidth}`,
      maxWidth,
      widthOf: (text: string) => text.length * 10,
    });
    const fits = withText("x".repeat(59), "user", "prompt");
    const wraps = withText(`${"x".repeat(30)} ${"y".repeat(30)}`, "user", "prompt");
    // Without metrics both are one rough line; with them the 61-character one takes two.
    expect(rowSizeClass(row(fits))).toBe(rowSizeClass(row(wraps)));
    expect(rowSizeClass(row(fits), metrics(600))).toBe("user:prompt:lines1");
    expect(rowSizeClass(row(wraps), metrics(600))).toBe("user:prompt:lines2");
    // A wider bubble (after a resize) classes it again.
    expect(rowSizeClass(row(wraps), metrics(700))).toBe("user:prompt:lines1");
    // Markdown or chips keep the rough class; so do answers.
    const marked = withText("**bold** prompt", "user", "prompt");
    expect(rowSizeClass(row(marked), metrics(600))).toBe(rowSizeClass(row(marked)));
    const answer = withText("x".repeat(59));
    expect(rowSizeClass(row(answer), metrics(600))).toBe(rowSizeClass(row(answer)));
  });

  it("gives a streaming message one class while it grows", () => {
    const streaming = { ...withText("a"), status: "streaming" as const };
    const longer = { ...streaming, text: "a\n".repeat(50) };
    expect(rowSizeClass(row(streaming))).toBe(rowSizeClass(row(longer)));
  });
});
