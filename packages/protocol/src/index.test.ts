/**
 * The wire shapes, checked the way both sides use them: what the server sends parses, an
 * unknown event type or a missing field is refused, and the request bodies stay strict.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CreateThreadBodySchema,
  ErrorBodySchema,
  ErrorCodeSchema,
  isTurnFinished,
  isTurnRunning,
  MessagePageSchema,
  MessageSchema,
  SendTurnBodySchema,
  type ServerEvent,
  ServerEventSchema,
  ThreadSchema,
  ThreadSearchResponseSchema,
  TurnSchema,
  TurnStatusSchema,
  UserInputAnswerBodySchema,
  UserInputAnswerResponseSchema,
  UserInputRequestSchema,
} from "./index.ts";

const at = "2026-12-04T00:00:00.000Z";
const thread = {
  id: "t1",
  environmentId: "env",
  title: "New thread",
  branchName: null,
  createdAt: at,
  updatedAt: at,
  messageCount: 0,
};
const turn = {
  id: "u1",
  threadId: "t1",
  status: "running",
  error: null,
  createdAt: at,
  completedAt: null,
};
const message = {
  id: "m1",
  threadId: "t1",
  turnId: "u1",
  role: "assistant",
  kind: "answer",
  text: "hello",
  status: "streaming",
  seq: 3,
  createdAt: at,
};
const request = {
  id: "r1",
  threadId: "t1",
  turnId: "u1",
  questions: [{ id: "q1", prompt: "Which?", options: ["A", "B"] }],
  createdAt: at,
};

/** One valid event of every type the schema knows. */
const events: ServerEvent[] = [
  { type: "message.created", message: MessageSchema.parse(message) },
  { type: "message.delta", messageId: "m1", offset: 5, delta: " world" },
  { type: "message.completed", message: MessageSchema.parse({ ...message, status: "complete" }) },
  { type: "turn.updated", turn: TurnSchema.parse(turn) },
  { type: "user_input.requested", request: UserInputRequestSchema.parse(request) },
  { type: "user_input.resolved", requestId: "r1" },
  { type: "thread.updated", thread: ThreadSchema.parse(thread) },
  {
    type: "message.cited",
    messageId: "m1",
    citedBy: {
      count: 1,
      ranges: [{ text: "world", start: 6, end: 11, prefix: "hello ", suffix: "" }],
    },
  },
];

describe("ServerEventSchema", () => {
  it("parses one event of every type, and covers every type it declares", () => {
    for (const event of events) expect(ServerEventSchema.parse(event)).toEqual(event);
    const declared = ServerEventSchema.options.map((option) => option.shape.type.value);
    expect(events.map((event) => event.type).sort()).toEqual([...declared].sort());
  });

  it("refuses an unknown type and an event missing a field", () => {
    expect(ServerEventSchema.safeParse({ type: "message.removed", messageId: "m1" }).success).toBe(
      false,
    );
    expect(ServerEventSchema.safeParse({ type: "message.delta", messageId: "m1" }).success).toBe(
      false,
    );
  });

  it("keeps a delta's offset a safe integer (property)", () => {
    fc.assert(
      fc.property(fc.double(), fc.string(), (offset, delta) => {
        const parsed = ServerEventSchema.safeParse({
          type: "message.delta",
          messageId: "m1",
          offset,
          delta,
        });
        expect(parsed.success).toBe(Number.isSafeInteger(offset));
      }),
    );
  });
});

describe("request bodies", () => {
  it("are strict: an unknown key is refused", () => {
    expect(SendTurnBodySchema.safeParse({ input: "hi" }).success).toBe(true);
    expect(SendTurnBodySchema.safeParse({ input: "hi", extra: 1 }).success).toBe(false);
    expect(CreateThreadBodySchema.safeParse({}).success).toBe(true);
    expect(CreateThreadBodySchema.safeParse({ title: "x".repeat(201) }).success).toBe(false);
    expect(
      UserInputAnswerBodySchema.safeParse({ requestId: "r1", answers: { q1: "A" } }).success,
    ).toBe(true);
    expect(UserInputAnswerBodySchema.safeParse({ requestId: "", answers: {} }).success).toBe(false);
  });
});

describe("responses", () => {
  it("parse a history page, a user-input answer and an error body", () => {
    expect(
      MessagePageSchema.safeParse({
        messages: [message],
        nextCursor: null,
        newerCursor: null,
        turns: [turn],
      }).success,
    ).toBe(true);
    expect(UserInputAnswerResponseSchema.parse({ requestId: "r1", turn })).toEqual({
      requestId: "r1",
      turn,
    });
    expect(UserInputAnswerResponseSchema.safeParse({ requestId: "r1" }).success).toBe(false);
  });

  it("read an error body with a code the client does not know", () => {
    const body = { error: { code: "some_future_code", message: "Later." } };
    expect(ErrorBodySchema.parse(body)).toEqual(body);
    expect(ErrorCodeSchema.safeParse("some_future_code").success).toBe(false);
    expect(ErrorCodeSchema.safeParse("input_too_long").success).toBe(true);
  });
});

describe("thread search response", () => {
  it("parses matches with ranges and a cursor", () => {
    const body = {
      matches: [
        { messageId: "m1", role: "user", ranges: [[0, 3]] },
        {
          messageId: "m2",
          role: "assistant",
          ranges: [
            [2, 5],
            [7, 9],
          ],
          truncated: true,
        },
      ],
      nextCursor: "c1",
    };
    expect(ThreadSearchResponseSchema.parse(body)).toEqual(body);
    expect(ThreadSearchResponseSchema.parse({ matches: [], nextCursor: null })).toEqual({
      matches: [],
      nextCursor: null,
    });
  });

  it("refuses empty or reversed ranges, a match without ranges and an unknown role", () => {
    const withMatch = (match: Record<string, unknown>) =>
      ThreadSearchResponseSchema.safeParse({ matches: [match], nextCursor: null }).success;
    expect(withMatch({ messageId: "m1", role: "user", ranges: [[3, 3]] })).toBe(false);
    expect(withMatch({ messageId: "m1", role: "user", ranges: [[4, 2]] })).toBe(false);
    expect(withMatch({ messageId: "m1", role: "user", ranges: [[-1, 2]] })).toBe(false);
    expect(withMatch({ messageId: "m1", role: "user", ranges: [] })).toBe(false);
    expect(withMatch({ messageId: "m1", role: "system", ranges: [[0, 1]] })).toBe(false);
    expect(withMatch({ messageId: "m1", role: "user", ranges: [[0, 1]], truncated: false })).toBe(
      false,
    );
    expect(ErrorCodeSchema.safeParse("invalid_query").success).toBe(true);
  });
});

describe("turn status", () => {
  it("isTurnRunning / isTurnFinished split every status in two, and no turn is not running", () => {
    const running = TurnStatusSchema.options.filter((status) => isTurnRunning({ status }));
    expect(running).toEqual(["running", "waiting_for_input"]);
    for (const status of TurnStatusSchema.options) {
      expect(isTurnFinished({ status })).toBe(!running.includes(status));
    }
    expect(isTurnRunning(null)).toBe(false);
    expect(isTurnRunning(undefined)).toBe(false);
  });
});
