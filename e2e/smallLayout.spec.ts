/**
 * Issue 21, item 9: small layout faults. A table right after a code block keeps the block gap
 * (it touched the block, 1 px apart), and "Stash draft" explains itself (tooltip and accessible
 * description).
 */
import {
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

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
