/**
 * Issue 21, item 8 (phone, 390×844, touch), checked by element geometry: a sent chip's "▾"
 * toggle stays on its chip's line, inside the viewport, and a coarse pointer sees no keyboard
 * hint ("Alt+Shift+Q") on the Cite button.
 */
import type { Page } from "@playwright/test";
import {
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/** Selects a whole paragraph of the newest answer with a script (as a long press would). */
async function selectAnswerParagraph(page: Page, startsWith: string): Promise<void> {
  await page.evaluate((startsWith) => {
    const bodies = document.querySelectorAll("[data-assistant-citation-source]");
    const body = bodies[bodies.length - 1]!;
    const paragraph = [...body.querySelectorAll("p")].find((p) =>
      (p.textContent ?? "").startsWith(startsWith),
    );
    if (!paragraph) throw new Error(`No paragraph starting "${startsWith}"`);
    window.getSelection()!.selectAllChildren(paragraph);
  }, startsWith);
}

test("a sent chip keeps its toggle on its own line, and touch shows no keyboard hint", async ({
  page,
}) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "Chips on a phone please");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();

  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await selectAnswerParagraph(page, "To repeat:");
  const cite = page.getByRole("button", { name: "Cite in composer" });
  await expect(cite).toBeVisible();
  // The shortcut still works and is named for assistive technology, but is not shown on touch.
  await expect(cite).toHaveAttribute("aria-keyshortcuts", "Alt+Shift+Q");
  await expect(cite.locator(".assistant-selection-toolbar__shortcut")).toBeHidden();

  await cite.tap();
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await comment.fill("Does this hold on a phone?");
  await comment.press("Enter");
  await page.getByRole("button", { name: "Send" }).tap();

  // Measured once the reply is in, both boxes in the same frame (the view follows the reply).
  await expect(
    page.locator('[data-role="assistant"][data-kind="answer"][data-status="complete"]'),
  ).toHaveCount(2);
  const group = page.locator('[data-role="user"] .citation-chip-group').last();
  await expect(group.getByRole("button", { name: "Show full quote" })).toBeVisible();
  const [chipBox, toggleBox] = await group.evaluate((element) =>
    [
      element.querySelector("[data-assistant-citation-chip]")!,
      element.querySelector("button")!,
    ].map((part) => part.getBoundingClientRect().toJSON() as DOMRect),
  );
  // Same line: the toggle's middle lies within the chip's height, to the chip's right.
  const middle = toggleBox!.y + toggleBox!.height / 2;
  expect(middle).toBeGreaterThan(chipBox!.y);
  expect(middle).toBeLessThan(chipBox!.y + chipBox!.height);
  expect(toggleBox!.x).toBeGreaterThanOrEqual(chipBox!.x + chipBox!.width - 1);
  // Inside the viewport.
  expect(toggleBox!.x + toggleBox!.width).toBeLessThanOrEqual(390);
  expect(chipBox!.x).toBeGreaterThanOrEqual(0);
});
