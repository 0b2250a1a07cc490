/**
 * A send that fails because the network is down shows an error and keeps the draft; sending
 * again once the network is back works. Chromium's offline emulation fails new requests but
 * leaves an open event stream alone, so the lost stream is made by failing every attempt to open
 * it (a route) until the route is lifted; the client's backoff and resume are unit-tested too.
 */
import {
  assistantBodies,
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
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

test("a lost event stream shows Reconnecting…, and the reply streamed meanwhile appears once it is back", async ({
  page,
}) => {
  // Every attempt to open the thread's event stream fails until the route is lifted.
  const blocked = (url: URL) => /\/api\/threads\/[^/]+\/events/.test(url.pathname);
  await page.route(blocked, (route) => route.abort("connectionreset"));
  const threadId = await createThreadFromUi(page);
  const notice = page.getByRole("status").filter({ hasText: "Reconnecting…" });
  await expect(notice).toBeVisible();

  // Sending works without the stream; the reply is made while no stream listens.
  const prompt = "Sent while the event stream was down";
  await sendPrompt(page, prompt);
  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
  await expect(composer(page)).toHaveText("");
  // Wait until the server has stored the whole reply: without a stream none of it reaches the page.
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/threads/${threadId}/messages?limit=5`);
      const { messages } = (await response.json()) as {
        messages: { role: string; status: string; text: string }[];
      };
      return messages.some(
        (message) =>
          message.role === "assistant" &&
          message.status === "complete" &&
          message.text.includes(DEMO_ANSWER_END),
      );
    })
    .toBe(true);
  await expect(page.getByText(DEMO_ANSWER_END)).toHaveCount(0);
  await expect(notice).toBeVisible();

  await page.unroute(blocked);
  await expect(notice).toHaveCount(0, { timeout: 20_000 });
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await expect(userRows(page)).toHaveCount(1);
});
