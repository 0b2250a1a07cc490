/** A pending user-input request: questions, option buttons, answers sent raw. */
import type { UserInputRequest } from "@app/protocol";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { commentedQuoteLink, setUpComposerTests } from "./composerTestSetup.ts";
import { pressEnter, readPrompt, renderComposer, setPrompt } from "./renderComposer.tsx";

setUpComposerTests();

describe("Composer pending user input", () => {
  const request: UserInputRequest = {
    id: "req-1",
    threadId: "thread-a",
    turnId: "turn-1",
    questions: [{ id: "q1", prompt: "Which option should I use?", options: ["Fast", "Safe"] }],
    createdAt: "2026-12-02T10:00:00.000Z",
  };

  it("shows the question and answers with the raw composer text", async () => {
    const { editor, textbox, onAnswer, onSend } = renderComposer({ pendingUserInput: request });
    expect(screen.getByRole("group", { name: "Which option should I use?" })).toBeInTheDocument();
    expect(screen.getByText("Answering: Which option should I use?")).toBeInTheDocument();
    const raw = `  use ${commentedQuoteLink} as is `;
    setPrompt(editor, raw);
    pressEnter(textbox);
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: raw }));
    expect(onSend).not.toHaveBeenCalled();
    await waitFor(() => expect(readPrompt(editor)).toBe(""));
  });

  it("answers with an option button", async () => {
    const { onAnswer } = renderComposer({ pendingUserInput: request });
    const group = screen.getByRole("group", { name: "Which option should I use?" });
    fireEvent.click(within(group).getByRole("button", { name: "Safe" }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: "Safe" }));
  });

  it("answers several questions from option buttons and the composer text", async () => {
    const twoQuestions: UserInputRequest = {
      ...request,
      questions: [
        { id: "mode", prompt: "Which mode?", options: ["Fast", "Safe"] },
        { id: "name", prompt: "What name?" },
      ],
    };
    const { editor, textbox, onAnswer } = renderComposer({ pendingUserInput: twoQuestions });
    const mode = screen.getByRole("group", { name: "Which mode?" });
    fireEvent.click(within(mode).getByRole("button", { name: "Safe" }));
    expect(within(mode).getByRole("button", { name: "Safe" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(onAnswer).not.toHaveBeenCalled();
    expect(screen.getByText("Answering: What name?")).toBeInTheDocument();
    setPrompt(editor, "report-2");
    pressEnter(textbox);
    await waitFor(() =>
      expect(onAnswer).toHaveBeenCalledWith("req-1", { mode: "Safe", name: "report-2" }),
    );
  });

  it("answers without the provider limit", async () => {
    const { editor, onAnswer } = renderComposer({ pendingUserInput: request });
    const long = "y".repeat(120_010);
    setPrompt(editor, long);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(onAnswer).toHaveBeenCalledWith("req-1", { q1: long }));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
