/**
 * Browser Back and Forward restore each thread's place (issue 32): read the seeded thread some
 * way up, open another thread from the list, go Back: the same message is at the same place in
 * the view; Forward and Back again do the same.
 */
import type { Page } from "@playwright/test";
import { composer, createThreadFromUi, expect, test } from "./support/fixtures.ts";

/** The first row starting inside the timeline's view: its id and its top, from the view's top. */
function topRow(page: Page): Promise<{ id: string; offset: number } | null> {
  return page.evaluate(() => {
    const scroller = document.querySelector(".timeline__scroller");
    if (!scroller) return null;
    const box = scroller.getBoundingClientRect();
    for (const row of scroller.querySelectorAll("[data-message-id]")) {
      const rect = row.getBoundingClientRect();
      if (rect.top >= box.top - 0.5 && rect.top < box.bottom) {
        return { id: row.getAttribute("data-message-id")!, offset: Math.round(rect.top - box.top) };
      }
    }
    return null;
  });
}

/** The top of a given row from the view's top, or null when it is not mounted. */
function offsetOf(page: Page, id: string): Promise<number | null> {
  return page.evaluate((id) => {
    const scroller = document.querySelector(".timeline__scroller");
    const row = scroller?.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
    if (!scroller || !row) return null;
    return Math.round(row.getBoundingClientRect().top - scroller.getBoundingClientRect().top);
  }, id);
}

// The place is a row and its offset, read as the entry is left too (the list measures rows after
// the last scroll event): a saved viewPosition clamped a row lower in the view than it was (it
// landed 256-460 px off), and the view being left wrote its place under the next entry's key.
test("Back and Forward bring each thread back to where it was read", async ({ page, rig }) => {
  test.setTimeout(90_000);
  const otherId = await createThreadFromUi(page);
  const sent = await page.request.post(`/api/threads/${otherId}/turns`, {
    data: { input: "A short thread to visit" },
  });
  expect(sent.ok()).toBe(true);

  await page.goto(rig.seededThreadPath);
  await expect(composer(page)).toBeVisible();
  const scroller = page.locator(".timeline__scroller");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 40);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -700);
  // Wait for the view to rest, then note the top row and its place.
  let before: { id: string; offset: number } | null = null;
  await expect
    .poll(async () => {
      const now = await topRow(page);
      const same =
        now !== null && before !== null && now.id === before.id && now.offset === before.offset;
      before = now;
      return same;
    })
    .toBe(true);
  const place = before!;

  await page.locator(`nav[aria-label="Threads"] a[data-thread-id="${otherId}"]`).click();
  await expect(page).toHaveURL(new RegExp(otherId));
  await expect(page.getByText("A short thread to visit").first()).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(rig.seededThreadId));
  await expect
    .poll(async () => Math.abs(((await offsetOf(page, place.id)) ?? -1e6) - place.offset))
    .toBeLessThanOrEqual(4);

  await page.goForward();
  await expect(page).toHaveURL(new RegExp(otherId));
  await expect(page.getByText("A short thread to visit").first()).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(rig.seededThreadId));
  await expect
    .poll(async () => Math.abs(((await offsetOf(page, place.id)) ?? -1e6) - place.offset))
    .toBeLessThanOrEqual(4);
});
