/**
 * A send that fails because the network is down shows an error and keeps the draft; sending
 * again once the network is back works. (Chromium's offline emulation fails new requests but
 * leaves the open event stream alone, so the reconnecting stream itself is covered by the web
 * app's unit tests, not here.)
 */
import {
  assistantBodies,
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  test,
  userRows,
} from "./support/fixtures.ts";

test("a send that fails offline keeps the draft, and succeeds once back online", async ({
  page,
  context,
}) => {
  await createThreadFromUi(page);
  const box = composer(page);
  const prompt = "Written while offline, sent once back online";
  await box.click();
  await page.keyboard.insertText(prompt);

  await context.setOffline(true);
  await box.press("Enter");
  await expect(page.getByRole("alert")).toContainText("Could not reach the server");
  await expect(box).toHaveText(prompt);
  await expect(userRows(page)).toHaveCount(0);

  await context.setOffline(false);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await expect(box).toHaveText("");
  await expect(page.getByRole("alert")).toHaveCount(0);
});
