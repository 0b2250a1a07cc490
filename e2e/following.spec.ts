/**
 * Following a streaming reply to its very end (issue 21 item 1): the first reply in a freshly
 * opened browser (its code chunks still loading, its table held until complete) ends in view,
 * every time; Jump to latest appears only while the reader is away from the end.
 */
import type { Page } from "@playwright/test";
import {
  assistantBodies,
  controlThreadEvents,
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
    // A freshly launched browser on a busy machine: everything runs slower than it will later.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
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

test("a reply that lands in one burst as its turn ends is followed to its last line", async ({
  page,
}) => {
  // A busy first load: the whole reply, its table and the turn's end reach the app in one task,
  // so the last growth happens after the turn has ended (the case that stopped 108-552 px short).
  const events = await controlThreadEvents(page);
  await page.goto("/");
  await events.hold(true);
  await sendPrompt(page, "A reply that arrives all at once");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  const threadId = new URL(page.url()).pathname.split("/")[2]!;
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/threads/${threadId}`);
      return ((await response.json()) as { activeTurn: unknown }).activeTurn;
    })
    .toBeNull();
  await events.hold(false);
  await events.release(10_000);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await settle(page);
  expect(Math.round(await replyOverhang(page))).toBeLessThanOrEqual(1);
});

// Issue 21 item 1, third point: with the list aligned at the end, Legend List re-aimed its opening
// scroll on every data change, so the pressed words moved 24-102 px (src/timeline/README.md).
test("a press on the first reply of a brand-new thread freezes the view for the whole gesture", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const events = await controlThreadEvents(page);
  await page.goto("/");
  await events.hold(true);
  await sendPrompt(page, "Press me while you stream");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  const reply = page.locator('[data-role="assistant"][data-kind="answer"]');
  // Let the reply's first paragraph arrive (the rest stays held).
  await expect
    .poll(
      async () => {
        await events.release(1);
        return reply.locator("p").count();
      },
      { intervals: [50], timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(2);
  await expect.poll(() => events.release(0)).toBeGreaterThanOrEqual(8);
  const word = reply.locator("p").first();
  const top = () => word.evaluate((p) => p.getBoundingClientRect().top);
  const box = (await word.boundingBox())!;
  await page.mouse.move(box.x + 8, box.y + box.height / 2);
  await page.mouse.down();
  const pressedTop = await top();
  const moves: number[] = [];
  // Chunks land while the button is held, each followed by two frames.
  for (let chunk = 0; chunk < 6; chunk++) {
    await events.release(1);
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    moves.push(Math.round((await top()) - pressedTop));
  }
  await page.mouse.up();
  // The pressed words never moved under the pointer.
  expect(moves.filter((move) => Math.abs(move) > 1)).toEqual([]);
  await events.hold(false);
  await events.release(10_000);
});
