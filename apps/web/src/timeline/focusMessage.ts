/**
 * Focus for a message row (articles are `tabindex=-1`) once the timeline has mounted it: after
 * Jump to latest the newest message takes focus, so it never drops to `<body>` when the button
 * that had it disappears. Never scrolls: the timeline alone decides where the view is.
 */

/** How many frames to wait for the row (a new session mounts within a few). */
const MAX_FRAMES = 120;

/** Focuses the row of `messageId` once it is mounted (or gives up after {@link MAX_FRAMES}). */
export function focusMessageWhenMounted(messageId: string): void {
  let frames = 0;
  const attempt = () => {
    const row = document.querySelector<HTMLElement>(
      `[data-timeline] [data-message-id="${CSS.escape(messageId)}"]`,
    );
    if (row) row.focus({ preventScroll: true });
    else if (frames++ < MAX_FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
