/**
 * Timing of the source highlight (pure): two 650 ms pulses, the second settling into a held
 * highlight, then a fade. Reduced motion holds the highlight without pulsing or fading.
 */

/** Length of one pulse. */
export const CITATION_PULSE_MS = 650;
/** How long the settled highlight is held after the pulses. */
export const CITATION_HOLD_MS = 2500;
/** Fade-out length. */
export const CITATION_FADE_MS = 500;

/** Total lifetime of the highlight. */
export function citationHighlightDuration(reducedMotion: boolean): number {
  return reducedMotion
    ? 2 * CITATION_PULSE_MS + CITATION_HOLD_MS
    : 2 * CITATION_PULSE_MS + CITATION_HOLD_MS + CITATION_FADE_MS;
}

/**
 * The highlight's opacity (0..1) `elapsed` ms after it started; 0 once it is over.
 * First pulse: up and down. Second pulse: up, then held at full strength. Then a linear fade.
 */
export function citationHighlightOpacity(elapsed: number, reducedMotion: boolean): number {
  if (!(elapsed >= 0) || elapsed >= citationHighlightDuration(reducedMotion)) return 0;
  if (reducedMotion) return 1;
  const pulse = CITATION_PULSE_MS;
  if (elapsed < pulse) return Math.sin((Math.PI * elapsed) / pulse);
  if (elapsed < 2 * pulse) {
    const u = (elapsed - pulse) / pulse;
    return u < 0.5 ? Math.sin(Math.PI * u) : 1;
  }
  const holdEnd = 2 * pulse + CITATION_HOLD_MS;
  if (elapsed < holdEnd) return 1;
  return Math.max(0, 1 - (elapsed - holdEnd) / CITATION_FADE_MS);
}
