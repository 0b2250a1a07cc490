/**
 * Issue 21, item 9: small layout faults. **Show more** in a short thread (shorter than the view)
 * leaves the message where it is (it moved up 42 px); a table right after a code block keeps
 * the block gap (it touched the block, 1 px apart); "Stash draft" explains itself (tooltip and
 * accessible description).
 */
import {
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

/** Resolves once no row has moved for 10 animation frames (the list has settled). */
function settled(page: import("@playwright/test").Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = "";
        let still = 0;
        const tick = () => {
          const now = [...document.querySelectorAll("[data-message-id]")]
            .map((row) => Math.round(row.getBoundingClientRect().top))
            .join(",");
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 10) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

test("Show more in a short thread leaves the message where it is", async ({ page }) => {
  // Tall enough that the folded prompt and its reply leave room above them.
  await page.setViewportSize({ width: 1280, height: 1000 });
  await createThreadFromUi(page);
  // A folded 40-line prompt and a one-line error notice: the thread is shorter than the view.
  const prompt = [
    "fail please, so the reply stays short",
    ...Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a prompt long enough to fold.`),
  ].join("\n");
  await sendPrompt(page, prompt);
  await expect(page.getByText(/Demo provider failed on purpose/)).toBeVisible();
  const message = page.locator('[data-role="user"]').first();
  await expect(message).toHaveAttribute("data-long-message", "folded");
  const scroller = page.locator(".timeline__scroller");
  await settled(page);
  expect(
    await scroller.evaluate((element) => element.scrollHeight <= element.clientHeight + 1),
  ).toBe(true);

  // Show more opens downwards: the message's top stays where it is.
  const top = () => message.boundingBox().then((box) => box!.y);
  const start = await top();
  await message.getByRole("button", { name: "Show more" }).click();
  await settled(page);
  expect(Math.abs((await top()) - start)).toBeLessThanOrEqual(2);
  // Unfolded, the message runs below the view (more so once Jump to latest shows): the reader
  // scrolls to Show less before clicking it. (The click's own scroll into view, unnoticed by the
  // test, moved the message 259-437 px between its reading and the click under load.) Folded
  // again, the thread is shorter than the view once more and starts at its top: the message is
  // back where it started, not pinned to an end the scroll into view had reached.
  const less = message.getByRole("button", { name: "Show less" });
  await less.scrollIntoViewIfNeeded();
  await settled(page);
  await less.click();
  await settled(page);
  expect(Math.abs((await top()) - start)).toBeLessThanOrEqual(2);
});

test("a table directly after a code block keeps the gap between blocks", async ({ page }) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "A code block then a table please");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const answer = page.locator("[data-assistant-citation-source]").last();
  const code = answer.locator(".code-block").first();
  // The demo's table is the block right after its code block.
  const table = code.locator("xpath=following-sibling::*[1]");
  await expect(table.locator("table")).toBeVisible();
  const codeBox = (await code.boundingBox())!;
  const tableBox = (await table.boundingBox())!;
  // The paragraph gap (0.75rem); a paragraph after the table gets the same.
  expect(tableBox.y - (codeBox.y + codeBox.height)).toBeGreaterThanOrEqual(10);
  const after = table.locator("xpath=following-sibling::*[1]");
  const afterBox = (await after.boundingBox())!;
  expect(afterBox.y - (tableBox.y + tableBox.height)).toBeGreaterThanOrEqual(10);
});

test('"Stash draft" says what it does', async ({ page }) => {
  await createThreadFromUi(page);
  await composer(page).click();
  await page.keyboard.insertText("A draft to set aside");
  const stash = page.getByRole("button", { name: "Stash draft" });
  await expect(stash).toHaveAccessibleDescription(/Set this draft aside and empty the composer/);
  await expect(stash).toHaveAttribute("title", /restore it later/);
});
