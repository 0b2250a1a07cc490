import { useEffect, useRef, useState } from "react";
import { copyTextAndHtml } from "./clipboard.ts";

/** Props for {@link CopyButton}. */
export type CopyButtonProps = {
  /** Accessible name; stays the same while the button shows its "Copied" feedback. */
  label: string;
  /** Short visible text (defaults to "Copy"). */
  text?: string;
  /** Produces the text to copy at click time (so streaming content is copied as it is now). */
  getText(): string;
  /** An HTML flavor to copy alongside the text (null or absent: text only). */
  getHtml?(): string | null;
  className?: string;
};

/** A small copy button with transient "Copied" feedback. */
export function CopyButton({ label, text = "Copy", getText, getHtml, className }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );

  const onClick = async () => {
    const ok = await copyTextAndHtml(getText(), getHtml?.() ?? null);
    setState(ok ? "copied" : "failed");
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), 1500);
  };

  return (
    <button
      type="button"
      className={`copy-button${className ? ` ${className}` : ""}`}
      aria-label={label}
      data-copy-state={state}
      onClick={onClick}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : text}
    </button>
  );
}
