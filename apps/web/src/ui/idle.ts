/** What an idle callback is told: how much of the idle period is left. */
export type IdleDeadlineLike = { timeRemaining(): number };

/**
 * `requestIdleCallback` where the browser has it (with `timeoutMs` as its deadline), otherwise a
 * short timer that reports an 8 ms budget (jsdom, older Safari). Returns a cancel function.
 */
export function requestIdle(
  callback: (deadline: IdleDeadlineLike) => void,
  timeoutMs?: number,
): () => void {
  if (typeof window !== "undefined" && "requestIdleCallback" in window) {
    const handle = window.requestIdleCallback(
      callback,
      timeoutMs === undefined ? undefined : { timeout: timeoutMs },
    );
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(() => callback({ timeRemaining: () => 8 }), 16);
  return () => clearTimeout(handle);
}
