/**
 * **Stop** for the running turn: shown while a turn runs, it asks the server to cancel it
 * (`POST .../turns/:turnId/cancel`). The partial reply stays in the timeline, readable and
 * citable; the turn ends `cancelled` through the thread's events, which hides the button.
 * The button is disabled at once and then goes away, so focus moves on at the click
 * (`onStopRequested`: the thread gives it to the composer), never left on `<body>`.
 */
import { useState } from "react";
import { ApiError, cancelTurn } from "../api/client.ts";
import "./stopTurn.css";

export interface StopTurnButtonProps {
  threadId: string;
  /** The running turn, or null when none runs (the button is then not rendered). */
  turnId: string | null;
  /** Injected in tests; defaults to the API client's cancelTurn. */
  cancel?: (threadId: string, turnId: string) => Promise<unknown>;
  /** Called at the click, before the button is disabled (move focus here). */
  onStopRequested?: () => void;
}

export function StopTurnButton({
  threadId,
  turnId,
  cancel = cancelTurn,
  onStopRequested,
}: StopTurnButtonProps) {
  // Both are kept per turn id, so a new turn starts with a fresh button.
  const [stopping, setStopping] = useState<string | null>(null);
  const [error, setError] = useState<{ turnId: string; message: string } | null>(null);

  if (turnId === null) return null;
  const onStop = () => {
    onStopRequested?.();
    setStopping(turnId);
    setError(null);
    cancel(threadId, turnId).then(
      () => {},
      (reason: unknown) => {
        setStopping(null);
        // The turn ended on its own meanwhile: nothing to stop, nothing to report.
        if (reason instanceof ApiError && reason.code === "turn_not_running") return;
        const message = reason instanceof Error ? reason.message : "Could not stop the reply.";
        setError({ turnId, message });
      },
    );
  };
  return (
    <div className="stop-turn">
      <button
        type="button"
        className="button stop-turn__button"
        onClick={onStop}
        disabled={stopping === turnId}
        aria-busy={stopping === turnId}
      >
        {stopping === turnId ? "Stopping…" : "Stop"}
      </button>
      {error !== null && error.turnId === turnId ? (
        <span role="alert" className="stop-turn__error">
          {error.message}
        </span>
      ) : null}
    </div>
  );
}
