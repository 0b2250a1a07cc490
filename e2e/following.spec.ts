/**
 * Following a streaming reply to its very end (issue 21 item 1): the first reply in a freshly
 * opened browser (its code chunks still loading, its table held until complete) ends in view,
 * every time; Jump to latest appears only while the reader is away from the end.
 */
import type { Page } from "@playwright/test";
import {
  assistantBodies,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  THREAD_PATH,
  test,
} from "./support/fixtures.ts";
import { CHROMIUM_LAUNCH } from "./support/rig.ts";

/** Resolves once no row content changed for 10 frames in a row. */
async function settle(page: Page): Promise<void> {
  await page.locator(".timeline__scroller").evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        let quietFrames = 0;
        const observer = new MutationObserver(() => {
          quietFrames = 0;
        });
        observer.observe(el, { subtree: true, childList: true, characterData: true });
        const frame = () => {
          quietFrames += 1;
          if (quietFrames >= 10) {
            observer.disconnect();
            resolve();
          } else {
            requestAnimationFrame(frame);
          }
        };
        requestAnimationFrame(frame);
      }),
  );
}

/** How far (px) the newest reply's bottom sits below the timeline's visible box (<= 0: in view). */
async function replyOverhang(page: Page): Promise<number> {
  return assistantBodies(page)
    .last()
    .evaluate((body) => {
      const scroller = body.closest(".timeline__scroller");
      if (scroller === null) return Number.POSITIVE_INFINITY;
      return body.getBoundingClientRect().bottom - scroller.getBoundingClientRect().bottom;
    });
}

test("the first reply in 10 fresh browsers is followed to its last line", async ({
  playwright,
}) => {
  test.setTimeout(240_000);
  const overhangs: number[] = [];
  for (let run = 0; run < 10; run++) {
    // A freshly launched browser each time: empty caches, nothing compiled or loaded yet.
    const browser = await playwright.chromium.launch(CHROMIUM_LAUNCH);
    const context = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      viewport: { width: 1280, height: 800 },
    });
    const page = await context.newPage();
    await page.goto("/");
    await sendPrompt(page, `First question number ${run} about cursor pagination`);
    await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
    await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
    await settle(page);
    overhangs.push(Math.round(await replyOverhang(page)));
    // At the end, so no Jump to latest.
    await expect(page.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);
    await browser.close();
  }
  console.log("overhangs", overhangs);
  // Every run: the reply's last line inside the view (1 px for sub-pixel layout).
  expect(overhangs.filter((overhang) => overhang > 1)).toEqual([]);
});
