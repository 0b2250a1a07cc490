import { useEffect, useRef } from "react";
import type { AssistantCitationActivation } from "./assistantCitationNavigation.ts";

/**
 * A thread that was deleted (DESIGN.md sections 6 and 8): a `status` saying so, and when it was
 * reached through a chip, "The source was deleted." with the chip's quote and comment readable.
 * Also shown for a chip whose thread no longer exists at all (purged, or never there): to the
 * reader it is the same missing source, and the quote must not be lost behind "Thread not found".
 */
export function DeletedSourceNotice({
  activation,
}: {
  activation: AssistantCitationActivation | null;
}) {
  // The chip that was activated went away with its thread's page, leaving focus on <body>:
  // after a citation action focus goes to the notice instead (unless the reader is typing).
  const ref = useRef<HTMLDivElement>(null);
  const activationId = activation?.activationId ?? null;
  useEffect(() => {
    if (activationId === null) return;
    const active = document.activeElement;
    const typing =
      active instanceof HTMLElement &&
      (active.isContentEditable || active.tagName === "INPUT" || active.tagName === "TEXTAREA");
    if (!typing) ref.current?.focus({ preventScroll: true });
  }, [activationId]);
  return (
    <div className="thread-view__center">
      <div ref={ref} className="notice notice--warning" role="status" tabIndex={-1}>
        {activation !== null ? "The source was deleted." : "This thread was deleted."}
      </div>
      {activation !== null ? (
        <blockquote className="thread-view__deleted-quote">
          <p>{activation.citation.text}</p>
          {activation.citation.comment ? <p>{activation.citation.comment}</p> : null}
        </blockquote>
      ) : null}
    </div>
  );
}
