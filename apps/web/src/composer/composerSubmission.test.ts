import { PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import { citationLinkFixture } from "@app/citations/testing";
import type { UserInputRequest } from "@app/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decideAnswer,
  decideMessage,
  promptAfterSend,
  submissionErrorMessage,
} from "./composerSubmission.ts";

function request(...questions: { id: string; prompt: string }[]): UserInputRequest {
  return { id: "r1", threadId: "t", turnId: "u", questions, createdAt: "2026-01-01T00:00:00Z" };
}

describe("decideMessage", () => {
  it("sends the trimmed prompt and ignores a blank one", () => {
    expect(decideMessage("  hello\n")).toEqual({ kind: "send", prompt: "hello" });
    expect(decideMessage(" \n\t ")).toEqual({ kind: "blank" });
  });

  it("blocks on the raw length once the trimmed prompt is over the limit", () => {
    expect(decideMessage(`  ${"a".repeat(PROVIDER_INPUT_MAX_CHARS)}  `).kind).toBe("send");
    expect(decideMessage("a".repeat(PROVIDER_INPUT_MAX_CHARS + 3))).toEqual({
      kind: "over-limit",
      message: "This message is 3 characters over the 120,000-character limit.",
    });
  });

  it("blocks on the expanded length when citations make the provider input too long", () => {
    const link = citationLinkFixture({ text: "q".repeat(8000) });
    // Raw text under the limit, but the expansion adds the quote again in JSON.
    const filler = "x".repeat(PROVIDER_INPUT_MAX_CHARS - link.length - 10);
    const decision = decideMessage(`${filler} ${link}`);
    expect(`${filler} ${link}`.length).toBeLessThan(PROVIDER_INPUT_MAX_CHARS);
    expect(decision.kind).toBe("over-limit");
  });
});

describe("decideAnswer", () => {
  const one = request({ id: "q1", prompt: "Which file?" });
  const two = request({ id: "q1", prompt: "Which file?" }, { id: "q2", prompt: "Why?" });

  it("answers the first open question with the raw text", () => {
    expect(decideAnswer(one, "  as typed \n", {})).toEqual({
      kind: "answer",
      answers: { q1: "  as typed \n" },
      usedText: true,
    });
    expect(decideAnswer(two, "because", { q1: "a.ts" })).toEqual({
      kind: "answer",
      answers: { q1: "a.ts", q2: "because" },
      usedText: true,
    });
  });

  it("answers with picked options alone and leaves the text unused", () => {
    expect(decideAnswer(two, "ignored", { q1: "a", q2: "b" })).toEqual({
      kind: "answer",
      answers: { q1: "a", q2: "b" },
      usedText: false,
    });
  });

  it("names the first unanswered question once the user tried, and stays quiet otherwise", () => {
    expect(decideAnswer(two, "only one", {})).toEqual({
      kind: "incomplete",
      message: "Please also answer: Why?",
    });
    expect(decideAnswer(two, "", { q2: "b" })).toEqual({
      kind: "incomplete",
      message: "Please also answer: Which file?",
    });
    expect(decideAnswer(two, "   ", {})).toEqual({ kind: "incomplete", message: null });
  });
});

describe("promptAfterSend", () => {
  it("clears the sent text and keeps what was typed after it", () => {
    expect(promptAfterSend("hello", "hello")).toBe("");
    expect(promptAfterSend("hello  more", "hello")).toBe("more");
    expect(promptAfterSend("rewritten", "hello")).toBe("rewritten");
  });

  it("never keeps the sent text at the start, and keeps a rewritten draft whole", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (sent, typed) => {
        const current = sent + typed;
        expect(promptAfterSend(current, sent)).toBe(typed.trimStart());
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), (current, sent) => {
        fc.pre(!current.startsWith(sent));
        expect(promptAfterSend(current, sent)).toBe(current);
      }),
    );
  });
});

describe("submissionErrorMessage", () => {
  it("uses an error's message, or a message-like object's, else a fallback", () => {
    expect(submissionErrorMessage(new Error("Thread is busy"))).toBe("Thread is busy");
    expect(submissionErrorMessage({ message: "Over quota" })).toBe("Over quota");
    const fallback = "Something went wrong. Your message is still in the composer.";
    expect(submissionErrorMessage(new Error(""))).toBe(fallback);
    expect(submissionErrorMessage({ message: 3 })).toBe(fallback);
    expect(submissionErrorMessage("boom")).toBe(fallback);
    expect(submissionErrorMessage(null)).toBe(fallback);
  });
});
