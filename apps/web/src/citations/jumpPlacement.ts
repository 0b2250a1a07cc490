/**
 * Where a jump puts its target, in one place for every jump: a chip's jump to its source
 * (`thread/useAssistantCitationTarget.ts`, `revealCitationSource.ts`), find's jump to a match
 * (`find/findJump.ts`) and the timeline's own `scrollToMessage` default (`timeline/timelineHandle.ts`).
 * Back to a chip (`useCitationReturn.ts`) restores the position the reader left instead.
 */

/** Where a jumped-to message's top goes in the view: a third down, as a reader expects (0 top, 1 bottom). */
export const JUMP_VIEW_POSITION = 0.3;

/**
 * When a chip's revealed source is checked again (ms after the first scroll): rows around it may
 * still be measured (estimated heights becoming real ones) and push it out of view. Later than
 * find's, because the source also pulses and is focused, and it may be deep in older history.
 */
export const CITATION_LATE_CHECKS_MS: readonly number[] = [700, 1300, 2000];

/** When find's revealed match is checked again (ms): late row measurements may move it. */
export const FIND_LATE_CHECKS_MS: readonly number[] = [300, 800, 1500];
