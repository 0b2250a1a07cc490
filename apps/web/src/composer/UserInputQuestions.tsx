/**
 * The provider's pending question(s) above the editor: one group per question with its option
 * buttons, and the line saying which question the editor text will answer. With one question an
 * option answers at once; with several, options toggle (`aria-pressed`) until Send.
 */
import type { UserInputRequest } from "@app/protocol";
import type { JSX } from "react";

/** Props of {@link UserInputQuestions}. */
export type UserInputQuestionsProps = {
  request: UserInputRequest;
  /** Options picked so far, by question id. */
  choices: Record<string, string>;
  /** True while a send or answer is in flight. */
  disabled: boolean;
  onChoose(questionId: string, option: string): void;
};

export function UserInputQuestions({
  request,
  choices,
  disabled,
  onChoose,
}: UserInputQuestionsProps): JSX.Element {
  const multiple = request.questions.length > 1;
  // The question the editor text will answer: the first one without a picked option.
  const answering =
    request.questions.find((question) => choices[question.id] === undefined) ??
    request.questions[0] ??
    null;
  return (
    <>
      <section className="composer-questions" aria-label="Question from the assistant">
        {request.questions.map((question) => (
          <fieldset key={question.id} className="composer-question">
            <legend className="composer-question__prompt">{question.prompt}</legend>
            {question.options !== undefined && question.options.length > 0 && (
              <div className="composer-question__options">
                {question.options.map((option) => (
                  <button
                    key={option}
                    type="button"
                    aria-pressed={multiple ? choices[question.id] === option : undefined}
                    disabled={disabled}
                    onClick={() => onChoose(question.id, option)}
                  >
                    {option}
                  </button>
                ))}
              </div>
            )}
          </fieldset>
        ))}
      </section>
      {answering !== null && (
        <p className="composer-mode" data-composer-answering="">
          Answering: {answering.prompt}
        </p>
      )}
    </>
  );
}
