/**
 * Following a streaming reply to its very end (issue 21 item 1): the first reply in a freshly
 * opened browser (its code chunks still loading, its table held until complete), sent after
 * citing from higher up or from the home page, ends with its last line and its Copy button in
 * view, every time; Jump to latest appears only while the reader is away from the end.
 *
 * "Freshly opened" is a new browser context per run, not a new browser process: a context has
 * its own HTTP cache (so no V8 code cache either), storage and renderer process, so the app is
 * downloaded, compiled and run from nothing, as in a freshly launched browser, without paying
 * for a Chromium launch each time. Each run checks that its page loaded every script over the
 * network. On the code before the follow policy, runs in fresh contexts missed as often as runs
 * in fresh browsers did (see the citing test).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import {
  assistantBodies,
  controlThreadEvents,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  THREAD_PATH,
  test,
  timelineQuiet,
  turnEnded,
} from "./support/fixtures.ts";

/** Fresh browser contexts per run of the citing test. */
const RUNS = 6;

/**
 * A fresh browser context (empty HTTP cache, storage and code cache; a renderer process of its
 * own) on the worker's browser, its one page's CPU throttled 4x (a busy machine, where everything
 * runs slower than it will later).
 */
async function freshContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return { context, page };
}

/**
 * The run's page came up cold: it loaded the app's entry and the code highlighter (the reply's
 * code block), and every script it loaded crossed the network (a cached one has a transfer size
 * of 0).
 */
async function expectColdScripts(page: Page): Promise<void> {
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => entry as PerformanceResourceTiming)
      .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ path: new URL(entry.name).pathname, transferSize: entry.transferSize })),
  );
  expect(scripts.filter((script) => /\/index-[^/]+\.js$/.test(script.path))).not.toHaveLength(0);
  expect(scripts.filter((script) => /\/lowlight-[^/]+\.js$/.test(script.path))).not.toHaveLength(0);
  expect(scripts.filter((script) => script.transferSize === 0)).toEqual([]);
}

/**
 * Where the newest answer's last line and its Copy button sit, in px below the bottom of the
 * timeline's visible box (<= 0: in view), how far the view is from the end, and whether the
 * follow policy still follows (`held`: it stopped; tells a miss of the list from a stopped mode).
 */
async function replyOverhang(
  page: Page,
): Promise<{ line: number; copy: number; end: number; held: boolean }> {
  return page
    .locator('[data-role="assistant"][data-kind="answer"]')
    .last()
    .evaluate((row) => {
      const scroller = row.closest(".timeline__scroller");
      const body = row.querySelector("[data-assistant-citation-source]");
      const copy = row.querySelector(".message__actions button");
      if (scroller === null || body === null || copy === null) {
        return {
          line: Number.POSITIVE_INFINITY,
          copy: Number.POSITIVE_INFINITY,
          end: -1,
          held: false,
        };
      }
      const bottom = scroller.getBoundingClientRect().bottom;
      const lastLine = body.lastElementChild ?? body;
      return {
        line: Math.round(lastLine.getBoundingClientRect().bottom - bottom),
        copy: Math.round(copy.getBoundingClientRect().bottom - bottom),
        end: Math.round(scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight),
        held: scroller.closest("[data-following-held]") !== null,
      };
    });
}

/** A titled thread holding one finished turn (titled: the sidebar never shows demo words). */
async function threadWithOneReply(page: Page, run: number): Promise<string> {
  const created = await page.request.post("/api/threads", {
    data: { title: `Following, fresh browser ${run}` },
  });
  expect(created.status()).toBe(201);
  const thread = (await created.json()) as { id: string; environmentId: string };
  const sent = await page.request.post(`/api/threads/${thread.id}/turns`, {
    data: { input: `An earlier question number ${run} about cursor pagination` },
  });
  expect(sent.ok()).toBe(true);
  await turnEnded(page, thread.id);
  return `/${thread.environmentId}/${thread.id}`;
}

// Issue 21 item 1: "each time it was the first reply in a freshly launched browser (from the
// home page, or after citing from higher up and sending)". The second path is the one that
// fails on the code before the one-owner follow policy (f13aec5): at 1280x640 the view stopped
// 284-565 px short in 6 of 21 runs in fresh browsers (1 to 2 of 5 at 1280x800), never on the
// current code. Fresh contexts catch it as well: at f13aec5, on a loaded machine, 8 of 36 runs in
// fresh contexts stopped 49-565 px short, and 6 of 36 in fresh browsers. Six runs leave the old
// code about one chance in five of passing. Sending with Enter instead of a click on Send never
// failed there (0 of 5), so the runs click.
test("the first reply in 6 fresh browser contexts, sent after citing from higher up, is followed to its last line and Copy button", async ({
  page,
  browser,
  rig,
}) => {
  test.setTimeout(180_000);
  const paths: string[] = [];
  for (let run = 0; run < RUNS; run++) paths.push(await threadWithOneReply(page, run));
  const misses: { run: number; line: number; copy: number; end: number; held: boolean }[] = [];
  for (const [run, path] of paths.entries()) {
    // A laptop window (1366x768 less the browser's own bars).
    const { context, page: fresh } = await freshContext(browser, rig.baseURL, {
      width: 1280,
      height: 640,
    });
    await fresh.goto(path);
    // The reply is taller than the view: its first paragraph is higher up than the end.
    const paragraph = assistantBodies(fresh).first().locator("p").first();
    await paragraph.click({ clickCount: 3 });
    await fresh.getByRole("button", { name: "Cite in composer" }).click();
    const comment = fresh.getByRole("textbox", { name: "Comment on quote" });
    await comment.fill("Why?");
    await comment.press("Enter");
    await expect(comment).toBeHidden();
    // Focus is back in the composer, right after the chip.
    await fresh.keyboard.insertText(` Follow-up number ${run}`);
    await fresh.getByRole("button", { name: "Send" }).click();
    await expect(
      fresh.locator('[data-role="user"]').filter({ hasText: `Follow-up number ${run}` }),
    ).toHaveCount(1);
    await turnEnded(fresh, path.split("/")[2]!);
    await expect(assistantBodies(fresh).last()).toContainText("I received 1 citation:");
    await timelineQuiet(fresh);
    const overhang = await replyOverhang(fresh);
    // 1 px for sub-pixel layout.
    if (overhang.line > 1 || overhang.copy > 1) misses.push({ run, ...overhang });
    // At the end, so no Jump to latest.
    else await expect(fresh.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);
    await expectColdScripts(fresh);
    await context.close();
  }
  // Every run: the reply's last line and its Copy button inside the view.
  expect(misses).toEqual([]);
});

test("the first reply in 10 fresh browser contexts, sent from the home page, is followed to its last line and Copy button", async ({
  browser,
  rig,
}) => {
  test.setTimeout(240_000);
  const misses: { run: number; line: number; copy: number; end: number; held: boolean }[] = [];
  for (let run = 0; run < 10; run++) {
    const { context, page: fresh } = await freshContext(browser, rig.baseURL, {
      width: 1280,
      height: 800,
    });
    await fresh.goto("/");
    await sendPrompt(fresh, `First question number ${run} about cursor pagination`);
    await expect(fresh).toHaveURL((url) => THREAD_PATH.test(url.pathname));
    await turnEnded(fresh, new URL(fresh.url()).pathname.split("/")[2]!);
    await expect(assistantBodies(fresh).last()).toContainText(DEMO_ANSWER_END);
    await timelineQuiet(fresh);
    const overhang = await replyOverhang(fresh);
    if (overhang.line > 1 || overhang.copy > 1) misses.push({ run, ...overhang });
    else await expect(fresh.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);
    await expectColdScripts(fresh);
    await context.close();
  }
  expect(misses).toEqual([]);
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
  await turnEnded(page, threadId);
  await events.hold(false);
  await events.release(10_000);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await timelineQuiet(page);
  const overhang = await replyOverhang(page);
  expect(Math.max(overhang.line, overhang.copy)).toBeLessThanOrEqual(1);
});

// The list's content is as tall as the sum of the rows it measured. When it misses a row's growth
// (seen once in CI: a first reply from the home page stopped 111 px short of its end), the row
// overflows the content and no size the app observes changes. Here the list's measurements of its
// rows are dropped (its ResizeObserver entries for row containers) and the last reply grows.
test("the last lines of a reply the list did not measure are brought into view", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const Native = window.ResizeObserver;
    const rowContainer = (target: Element) => target.matches(".timeline__content > div > div");
    window.ResizeObserver = class extends Native {
      constructor(callback: ResizeObserverCallback) {
        super((entries, observer) => {
          const dropping = (window as { dropRowMeasurements?: boolean }).dropRowMeasurements;
          const kept = dropping ? entries.filter((entry) => !rowContainer(entry.target)) : entries;
          if (kept.length > 0) callback(kept, observer);
        });
      }
    };
  });
  await page.goto("/");
  await sendPrompt(page, "A reply that outgrows its measured row");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await timelineQuiet(page);
  const scroller = page.locator(".timeline__scroller");
  const distanceToEnd = () =>
    scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
  expect(await distanceToEnd()).toBeLessThanOrEqual(1);
  const before = await scroller.evaluate((el) => el.scrollHeight);
  await assistantBodies(page)
    .last()
    .evaluate((body) => {
      (window as { dropRowMeasurements?: boolean }).dropRowMeasurements = true;
      const late = document.createElement("p");
      late.textContent = "Late lines the list did not measure.";
      late.style.height = "400px";
      body.append(late);
    });
  // The row overflows the content: the thread is longer, and the view follows it there.
  await expect.poll(() => scroller.evaluate((el) => el.scrollHeight)).toBeGreaterThan(before + 300);
  await expect.poll(distanceToEnd).toBeLessThanOrEqual(1);
  await expect(page.getByText("Late lines the list did not measure.")).toBeInViewport();
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
  await events.releaseUntil(() => reply.locator("p").count()).toBeGreaterThanOrEqual(2);
  // The reply arrives in stored flushes of ~100 ms (a few chunks each): keep four held.
  await expect.poll(() => events.release(0)).toBeGreaterThanOrEqual(4);
  const word = reply.locator("p").first();
  const top = () => word.evaluate((p) => p.getBoundingClientRect().top);
  const box = (await word.boundingBox())!;
  await page.mouse.move(box.x + 8, box.y + box.height / 2);
  await page.mouse.down();
  const pressedTop = await top();
  const moves: number[] = [];
  // Chunks land while the button is held, each followed by two frames.
  for (let chunk = 0; chunk < 4; chunk++) {
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

// A send within a second of a wheel up: the list's own moves as the new rows were measured were
// taken for the reader's (their wheel was recent), and a move up among them stopped following,
// so the reply streamed out of sight (3 runs in 10). Rounds make the race likely on old code.
test("a send right after wheeling up follows the reply to its last line", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await sendPrompt(page, "First prompt to make some content");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  const threadId = new URL(page.url()).pathname.split("/")[2]!;
  await turnEnded(page, threadId);
  await sendPrompt(page, "Second prompt to make more content");
  await turnEnded(page, threadId);
  const scroller = page.locator(".timeline__scroller");
  for (let round = 0; round < 3; round++) {
    await scroller.hover();
    for (let tick = 0; tick < 6; tick++) await page.mouse.wheel(0, -400);
    // The wheel's scroll lands (the view leaves the end), then the reader turns to the composer.
    await expect
      .poll(() => scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight))
      .toBeGreaterThan(100);
    await sendPrompt(page, `Prompt ${round + 3} sent right after a wheel`);
    await turnEnded(page, threadId);
    await timelineQuiet(page);
    // At the very end, the reply's last line and Copy button in view.
    const gap = await scroller.evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
    expect(gap, `round ${round}`).toBeLessThanOrEqual(1);
    await expect(page.getByText(DEMO_ANSWER_END).last()).toBeInViewport();
  }
});
