/**
 * The view does not jump when a reply ends. A recorder in the page reads, every animation frame
 * across the end of a reply, where each timeline row is, under 4x CPU throttling (a busy machine,
 * where the list's layouts land a frame late). While following, no frame moves the rows down
 * (the list once grew its content by twice a row's growth for one frame, and the browser then
 * clamped the scroll position back: every row jumped down, and a click in flight was lost);
 * while the reader has scrolled up a little, the rows in view do not move at all.
 */
import type { Page } from "@playwright/test";
import {
  assistantBodies,
  controlThreadEvents,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
  timelineQuiet,
  turnEnded,
} from "./support/fixtures.ts";

/** One recorded frame: the scroller's metrics and each mounted row's box (view coordinates). */
type Frame = {
  frame: number;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  content: number;
  rows: { id: string; top: number; bottom: number }[];
};

/** Starts recording a frame on every animation frame. */
function startRecording(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: Frame[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let frame = 0;
    const record = () => {
      if (!w.__recording) return;
      const scroller = document.querySelector(".timeline__scroller");
      const content = document.querySelector(".timeline__content");
      if (scroller && content) {
        const box = scroller.getBoundingClientRect();
        w.__frames.push({
          frame,
          scrollTop: scroller.scrollTop,
          scrollHeight: scroller.scrollHeight,
          clientHeight: scroller.clientHeight,
          content: content.getBoundingClientRect().height,
          // Every row: a message, or a turn's working, outcome, error or fold row.
          rows: [
            ...document.querySelectorAll<HTMLElement>(
              ".timeline__content [data-message-id], .timeline__content [data-row-kind]",
            ),
          ].map((row) => {
            const rect = row.getBoundingClientRect();
            return {
              id: row.dataset.messageId ?? `${row.dataset.rowKind}:${row.dataset.turnId}`,
              top: rect.top - box.top,
              bottom: rect.bottom - box.top,
            };
          }),
        });
      }
      frame += 1;
      requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
}

/** Stops recording and returns the frames. */
function stopRecording(page: Page): Promise<Frame[]> {
  return page.evaluate(() => {
    const w = window as unknown as { __frames: Frame[]; __recording: boolean };
    w.__recording = false;
    return w.__frames;
  });
}

/** A row that moved between two consecutive frames, by `move` px (positive: down). */
type Move = { frame: number; id: string; move: number; scrollTop: [number, number] };

/**
 * The moves of rows present in two consecutive frames, measured from the view's top edge, or
 * from its bottom edge with `fromBottom` (where a followed reply's end is held), that `counts`
 * keeps.
 */
function rowMoves(
  frames: readonly Frame[],
  { fromBottom = false } = {},
  counts: (move: number, row: { top: number; bottom: number }, frame: Frame) => boolean,
): Move[] {
  const moves: Move[] = [];
  for (let i = 1; i < frames.length; i++) {
    const before = frames[i - 1]!;
    const after = frames[i]!;
    // A taller view (the composer's turn controls gone at the end) moves its own bottom edge.
    const edge = fromBottom ? after.clientHeight - before.clientHeight : 0;
    for (const row of after.rows) {
      const previous = before.rows.find((candidate) => candidate.id === row.id);
      if (previous === undefined) continue;
      const move = Math.round((row.top - previous.top - edge) * 10) / 10;
      if (counts(move, previous, before)) {
        moves.push({
          frame: after.frame,
          id: row.id,
          move,
          scrollTop: [before.scrollTop, after.scrollTop],
        });
      }
    }
  }
  return moves;
}

/** Frames showing empty room below the newest row of a thread taller than the view. */
function roomBelowEnd(frames: readonly Frame[]): { frame: number; room: number }[] {
  return frames
    .filter((frame) => frame.scrollHeight > frame.clientHeight + 1 && frame.rows.length > 0)
    .map((frame) => ({
      frame: frame.frame,
      room: Math.round(frame.clientHeight - Math.max(...frame.rows.map((row) => row.bottom))),
    }))
    .filter(({ room }) => room > 1);
}

/** Opens a thread with one finished turn, its page's CPU throttled 4x. */
async function threadWithOneTurn(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const threadId = await createThreadFromUi(page);
  await page.mouse.move(2, 2);
  await sendPrompt(page, "A first question to fill the view");
  await turnEnded(page, threadId);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await timelineQuiet(page, { scroll: true });
  return threadId;
}

test("while following, no frame moves the rows down when a reply ends", async ({ page }) => {
  test.setTimeout(90_000);
  const threadId = await threadWithOneTurn(page);
  await startRecording(page);
  // The pointer rests outside the timeline: nothing of the reader's stops following.
  await page.mouse.move(2, 2);
  await sendPrompt(page, "A second question, answered while I watch");
  await expect(assistantBodies(page)).toHaveCount(2);
  await turnEnded(page, threadId);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await timelineQuiet(page, { scroll: true });
  const frames = await stopRecording(page);
  expect(frames.length).toBeGreaterThan(10);
  // The end is held at the view's bottom: no row moves down from it, and no frame shows room
  // below the newest row (the list scrolled past the end, and the browser clamped it back).
  const down = rowMoves(frames, { fromBottom: true }, (move) => move > 1);
  const room = roomBelowEnd(frames);
  console.log(`following: ${frames.length} frames, ${down.length} row moves down`, down[0] ?? "");
  expect(down).toEqual([]);
  expect(room).toEqual([]);
  // The newest line is in view at the end.
  const last = frames.at(-1)!;
  const bottom = Math.max(...last.rows.map((row) => row.bottom));
  expect(Math.abs(bottom - last.clientHeight)).toBeLessThanOrEqual(1);
});

test("scrolled up a little, rows in view do not move when a reply ends", async ({ page }) => {
  test.setTimeout(90_000);
  const events = await controlThreadEvents(page);
  const threadId = await threadWithOneTurn(page);
  await events.hold(true);
  await sendPrompt(page, "A second question, answered while I read above");
  const reply = page.locator('[data-role="assistant"][data-kind="answer"]').last();
  // Let the reply's first paragraphs arrive (the rest, and the turn's end, stay held).
  await events.releaseUntil(() => reply.locator("p").count()).toBeGreaterThanOrEqual(2);
  await timelineQuiet(page, { scroll: true });
  // The reader scrolls up a little: the streamed reply stays partly in view.
  const scroller = page.locator(".timeline__scroller");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -120);
  await expect(page.locator("[data-timeline][data-following-held]")).toHaveCount(1);
  await timelineQuiet(page, { scroll: true });
  await page.mouse.move(2, 2);
  const replyBox = await reply.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const view = document.querySelector(".timeline__scroller")!.getBoundingClientRect();
    return { top: rect.top - view.top, bottom: rect.bottom - view.top, height: view.height };
  });
  // The streamed reply is partly in view: its top in the view, its end below it.
  expect(replyBox.top).toBeLessThan(replyBox.height);
  expect(replyBox.bottom).toBeGreaterThan(replyBox.height);
  await startRecording(page);
  // The rest of the reply lands a few events a frame (a stream, not one burst), then its end.
  await page.evaluate(async () => {
    const w = window as unknown as { releaseThreadEvents: (n: number) => number };
    while (w.releaseThreadEvents(2) > 0) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });
  await events.hold(false);
  await events.release(10_000);
  await turnEnded(page, threadId);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await timelineQuiet(page, { scroll: true });
  const frames = await stopRecording(page);
  expect(frames.length).toBeGreaterThan(10);
  // Rows in view (any part of them) keep their place, to the pixel.
  const moved = rowMoves(
    frames,
    {},
    (move, row, frame) => Math.abs(move) > 1 && row.bottom > 0 && row.top < frame.clientHeight,
  );
  console.log(`scrolled up: ${frames.length} frames, ${moved.length} row moves`, moved[0] ?? "");
  expect(moved).toEqual([]);
  await expect(page.locator("[data-timeline][data-following-held]")).toHaveCount(1);
});
