/**
 * (issue 32) Citation jump speed by depth on the seeded 2,000-turn thread at 1280×800: from the
 * click on a chip of the seed's last prompt to the first frame in which the cited words are
 * highlighted and fully inside the timeline's visible box, JUMP_DEPTH_RUNS clicks (default 20)
 * each at 1, 20, 300 and 1,900 turns back ("Deep link to turn 1999", "Revisit turn 1980", "Deep
 * link to turn 1700", "Deep link to turn 100"). Each click is made in a freshly opened thread
 * (warm cache), timed as `citationJumps.ts` times its clicks.
 */
import type { Browser } from "@playwright/test";
import type { RigState } from "../../e2e/support/rig.ts";
import { chipSelector, type JumpCase, openThread, timeClick } from "./citationJumps.ts";
import { newPerfContext } from "./rig.ts";
import { median } from "./stats.ts";

/** Clicks per depth. */
export const JUMP_DEPTH_RUNS = Number(process.env.JUMP_DEPTH_RUNS ?? 20);

/** The chip of each depth (turns back from the seed's last prompt, turn 2,000). */
const DEPTHS: readonly { back: number; comment: (turns: number) => string }[] = [
  { back: 1, comment: (turns) => `Deep link to turn ${turns - 1}` },
  { back: 20, comment: (turns) => `Revisit turn ${turns - 20}` },
  { back: 300, comment: (turns) => `Deep link to turn ${turns - 300}` },
  { back: 1900, comment: (turns) => `Deep link to turn ${turns - 1900}` },
];

/** Measures each depth (see the module doc). */
export async function measureJumpDepths(browser: Browser, rig: RigState): Promise<JumpCase[]> {
  const context = await newPerfContext(browser);
  const page = await context.newPage();
  const cases: JumpCase[] = [];
  try {
    await openThread(page, rig); // fills the cache
    for (const { back, comment } of DEPTHS) {
      const runs: number[] = [];
      for (let i = 0; i < JUMP_DEPTH_RUNS; i++) {
        await openThread(page, rig);
        runs.push(
          await timeClick(page, page.locator(chipSelector(comment(rig.seededTurns))), "highlight"),
        );
      }
      cases.push({ label: `${back.toLocaleString("en")} turns back`, runs, median: median(runs) });
    }
    return cases;
  } finally {
    await context.close();
  }
}
