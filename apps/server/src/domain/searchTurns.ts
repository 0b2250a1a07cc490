/**
 * Turns of the event loop for search slices (issue 33). A search yields between slices of its
 * work (`threadSearch.ts`, `crossThreadSearch.ts`); with a plain `setImmediate` per yield, the
 * slices of every search running at once resumed in the same check phase, so four clients
 * searching made one loop turn of four slices. Here the waiting slices form one queue and
 * resume one per turn of the event loop, first come first served: a request arriving meanwhile
 * waits for one slice at most.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function resumeNext(): void {
  scheduled = false;
  const resume = waiting.shift();
  // The next one in a later turn, after the I/O that arrived meanwhile.
  if (waiting.length > 0) schedule();
  resume?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(resumeNext);
}

/** Resolves in a later turn of the event loop, when this slice's turn comes. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
