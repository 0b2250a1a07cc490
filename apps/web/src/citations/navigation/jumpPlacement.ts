/**
 * Where a jump puts its target, in one place for every jump: a chip's jump to its source
 * (`thread/useAssistantCitationTarget.ts`, `revealCitationSource.ts`), find's jump to a match
 * (`find/findJump.ts`) and the timeline's own `scrollToMessage` default (`timeline/timelineHandle.ts`).
 * Back to a chip (`useCitationReturn.ts`) restores the position the reader left instead.
 */

/** Where a jumped-to message's top goes in the view: a third down, as a reader expects (0 top, 1 bottom). */
export const JUMP_VIEW_POSITION = 0.3;

/*
 * A chip's revealed source is kept fully in view while the layout settles by
 * `keepRevealedInView.ts` (every frame for a short while), not by timed late checks.
 */

/** When find's revealed match is checked again (ms): late row measurements may move it. */
export const FIND_LATE_CHECKS_MS: readonly number[] = [300, 800, 1500];
