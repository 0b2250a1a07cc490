/** Progress updates of a turn are folded behind "Show N updates" and unfold on demand. */
import {
  assistantBodies,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

test("a turn's progress updates unfold from 'Show 2 updates'", async ({ page }) => {
  await createThreadFromUi(page);
  // "progress" makes the demo write two progress messages before its answer.
  await sendPrompt(page, "Show progress while you work on this");
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);

  const toggle = page.getByRole("button", { name: /Show 2 updates/ });
  await expect(toggle).toBeVisible();
  await expect(page.getByText("Reading the thread…")).toBeHidden();
  await expect(page.getByText("Drafting an answer…")).toBeHidden();

  await toggle.click();
  await expect(page.getByText("Reading the thread…")).toBeVisible();
  await expect(page.getByText("Drafting an answer…")).toBeVisible();
});
