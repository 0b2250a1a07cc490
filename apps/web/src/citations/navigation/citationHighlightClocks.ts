/**
 * Highlight lifetimes of citation activations. Each activation's clock belongs to the navigation
 * (useCitationActivation keeps one set per thread view), not to whichever highlighter happens to
 * be mounted: a range repair keeps it, a remount resumes the time left, and an expired or
 * dismissed highlight never comes back.
 */

/** Highlight lifetime of one activation. */
export type CitationHighlightClock = {
  /** `performance.now()` when the highlight first started; null until the text was found. */
  startedAt: number | null;
  /** True once it ran out or was dismissed: it never revives. */
  finished: boolean;
};

/** How many activations' clocks are remembered (the oldest are forgotten first). */
const MAX_CLOCKS = 50;

/** A set of clocks, one per activation id, created on first use. */
export type CitationHighlightClocks = { clockFor(activationId: string): CitationHighlightClock };

/** A fresh set of clocks. */
export function createCitationHighlightClocks(): CitationHighlightClocks {
  const clocks = new Map<string, CitationHighlightClock>();
  return {
    clockFor(activationId) {
      let clock = clocks.get(activationId);
      if (!clock) {
        clock = { startedAt: null, finished: false };
        clocks.set(activationId, clock);
        if (clocks.size > MAX_CLOCKS) {
          const oldest = clocks.keys().next().value;
          if (oldest !== undefined) clocks.delete(oldest);
        }
      }
      return clock;
    },
  };
}
