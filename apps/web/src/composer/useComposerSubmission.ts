/**
 * Send and answer: one request in flight at a time, the limit or error notice, and the options
 * picked for a multi-question user-input request. The decisions themselves are the pure
 * functions of `composerSubmission.ts`.
 */
import type { UserInputRequest } from "@app/protocol";
import { useCallback, useMemo, useRef, useState } from "react";
import { decideAnswer, decideMessage, submissionErrorMessage } from "./composerSubmission.ts";

/** The alert under the editor: an over-limit prompt or a failed send/answer. */
export type ComposerNotice = { kind: "limit" | "error"; message: string };

/** Inputs of {@link useComposerSubmission}. */
export type ComposerSubmissionOptions = {
  pendingUserInput: UserInputRequest | null;
  /** The current prompt string of the editor. */
  readPrompt(): string;
  /** Called after a successful send or answer that used the editor text `sent`. */
  onSent(sent: string): void;
  onSend(prompt: string): Promise<void>;
  onAnswer(requestId: string, answers: Record<string, string>): Promise<void>;
};

/** State and actions for the Send button, Enter, and the question option buttons. */
export type ComposerSubmission = {
  inFlight: boolean;
  notice: ComposerNotice | null;
  /** Options picked so far for the pending request, by question id. */
  choices: Record<string, string>;
  submit(): void;
  chooseOption(questionId: string, option: string): void;
  /** Hides the notice (the user changed the draft). */
  dismissNotice(): void;
};

export function useComposerSubmission({
  pendingUserInput,
  readPrompt,
  onSent,
  onSend,
  onAnswer,
}: ComposerSubmissionOptions): ComposerSubmission {
  const [inFlight, setInFlight] = useState(false);
  // The ref guards against a second submit before React re-renders with `inFlight`.
  const inFlightRef = useRef(false);
  const [notice, setNotice] = useState<ComposerNotice | null>(null);
  const noticeRef = useRef<ComposerNotice | null>(null);
  noticeRef.current = notice;
  // Options picked for a multi-question request, remembered per request id.
  const [picked, setPicked] = useState<{
    requestId: string | null;
    answers: Record<string, string>;
  }>({ requestId: null, answers: {} });

  const requestId = pendingUserInput?.id ?? null;
  // A new question starts with no option chosen.
  const choices = useMemo(
    () => (picked.requestId === requestId ? picked.answers : {}),
    [picked, requestId],
  );

  /** Runs a send/answer; on success hands `sent` to `onSent` (null: leave the editor). */
  const run = useCallback(
    async (task: () => Promise<void>, sent: string | null) => {
      inFlightRef.current = true;
      setInFlight(true);
      setNotice(null);
      try {
        await task();
        if (sent !== null) onSent(sent);
      } catch (error) {
        setNotice({ kind: "error", message: submissionErrorMessage(error) });
      } finally {
        inFlightRef.current = false;
        setInFlight(false);
      }
    },
    [onSent],
  );

  const answer = useCallback(
    (request: UserInputRequest, text: string, chosen: Record<string, string>) => {
      const decision = decideAnswer(request, text, chosen);
      if (decision.kind === "incomplete") {
        if (decision.message !== null) setNotice({ kind: "error", message: decision.message });
        return;
      }
      void run(() => onAnswer(request.id, decision.answers), decision.usedText ? text : null);
    },
    [onAnswer, run],
  );

  const submit = useCallback(() => {
    if (inFlightRef.current) return;
    const prompt = readPrompt();
    if (pendingUserInput !== null) {
      answer(pendingUserInput, prompt, choices);
      return;
    }
    const decision = decideMessage(prompt);
    if (decision.kind === "over-limit") setNotice({ kind: "limit", message: decision.message });
    if (decision.kind !== "send") return;
    void run(() => onSend(decision.prompt), prompt);
  }, [answer, choices, onSend, pendingUserInput, readPrompt, run]);

  const chooseOption = useCallback(
    (questionId: string, option: string) => {
      if (pendingUserInput === null || inFlightRef.current) return;
      const answers = { ...choices, [questionId]: option };
      if (pendingUserInput.questions.length === 1) {
        answer(pendingUserInput, "", answers);
      } else {
        setPicked({ requestId: pendingUserInput.id, answers });
      }
    },
    [answer, choices, pendingUserInput],
  );

  const dismissNotice = useCallback(() => {
    if (noticeRef.current !== null) setNotice(null);
  }, []);

  return { inFlight, notice, choices, submit, chooseOption, dismissNotice };
}
