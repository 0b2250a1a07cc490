/**
 * The composer at its limits, as a user meets them: a live count from 90% of the 120,000
 * character limit, "N over" with Send disabled and the reason beside it (the draft stays
 * editable), and a composer on the home page that starts a thread with its first prompt.
 */
import type { Locator, Page } from "@playwright/test";
import {
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  THREAD_PATH,
  test,
  threadIdOf,
  userRows,
} from "./support/fixtures.ts";

/** Pastes `text` at the caret through the real clipboard (one paste, as a user would). */
async function paste(page: Page, box: Locator, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await box.press("ControlOrMeta+v");
}

const length = (box: Locator) => box.evaluate((el) => (el.textContent ?? "").length);

test("near the limit a live count shows; over it Send is disabled, says why, and the draft stays editable", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const threadId = await createThreadFromUi(page);
  const box = composer(page);
  const send = page.getByRole("button", { name: "Send" });
  const count = page.locator("[data-composer-length]");
  await box.click();

  // 108,012 characters, 108,011 after trimming: from 90% of the limit the count shows.
  const first = "lorem ipsum ".repeat(9_001);
  await paste(page, box, first);
  await expect.poll(() => length(box)).toBe(first.length);
  await expect(count).toHaveText("108,011 / 120,000");
  await expect(send).toBeEnabled();

  // 13,223 more: 121,235 characters, 1,235 over. Send is disabled and the reason is beside it.
  await paste(page, box, "x".repeat(13_223));
  await expect(count).toContainText("1,235 over");
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(
    "Too long to send: the limit is 120,000 characters.",
  );
  await expect(page.getByText("Too long to send: the limit is 120,000 characters.")).toBeVisible();

  // Still editable, and the count follows the typing.
  await expect(box).toBeEditable();
  await box.press("ControlOrMeta+End");
  await box.pressSequentially("zz");
  await expect(count).toContainText("1,237 over");
  // Enter explains itself the same way; nothing is sent.
  await box.press("Enter");
  await expect(page.getByRole("alert")).toHaveText(
    "This message is 1,237 characters over the 120,000-character limit.",
  );

  // Back under the limit: Send is enabled again and the count goes when the draft is short.
  for (let i = 0; i < 3; i++) await box.press("Backspace");
  await expect.poll(() => length(box)).toBe(first.length + 13_223 - 1);
  await box.press("ControlOrMeta+a");
  await box.pressSequentially("A short message");
  await expect(count).toHaveCount(0);
  await expect(send).toBeEnabled();

  const messages = await page.request.get(`/api/threads/${threadId}/messages?limit=5`);
  expect((await messages.json()).messages).toEqual([]);
});

test("sending from the home page creates the thread with that first prompt and opens it", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.goto("/");
  const box = composer(page);
  await expect(box).toBeVisible();
  const prompt = "Kick off the release checklist from the home page";
  await sendPrompt(page, prompt);

  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  const threadId = threadIdOf(page);
  await expect(userRows(page)).toHaveCount(1);
  await expect(userRows(page).first()).toContainText(prompt);
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();

  // One new thread, titled from its first prompt, holding exactly that prompt.
  const thread = await (await request.get(`/api/threads/${threadId}`)).json();
  expect(thread.thread.title).toContain("Kick off the release checklist");
  const messages = (await (await request.get(`/api/threads/${threadId}/messages?limit=10`)).json())
    .messages as { role: string; text: string }[];
  expect(messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual([prompt]);
  await expect(
    page.locator(`nav[aria-label="Threads"] a[data-thread-id="${threadId}"]`),
  ).toContainText("Kick off the release checklist");

  // Back home, the composer is empty again (the sent draft is not kept there).
  await page.getByRole("link", { name: "Chat", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(composer(page)).toHaveText("");
});
