/** Copying a rendered reply yields its Markdown (table pipes, code fences), not flattened text. */
import {
  assistantBodies,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

test("'Copy message' and selection copy both give Markdown", async ({ page }) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "Give me a table and some code");
  const answer = assistantBodies(page).last();
  await expect(answer).toContainText(DEMO_ANSWER_END);
  const answerId = await answer.getAttribute("data-assistant-citation-source");
  const answerRow = page.locator(`[data-message-id="${answerId}"]`);

  await answerRow.hover();
  await answerRow.getByRole("button", { name: "Copy message" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("| Measure | Value |");
  expect(copied).toMatch(/\| --- \| -*:? ?\|/);
  expect(copied).toMatch(/^```\w+$/m);
  expect(copied).toContain("**bold**");

  // Selecting the whole rendered body and pressing Ctrl+C also copies Markdown.
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await answer.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  });
  await page.keyboard.press("ControlOrMeta+c");
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toContain("| Measure | Value |");
  const selected = await page.evaluate(() => navigator.clipboard.readText());
  expect(selected).toMatch(/^```\w+$/m);
});
