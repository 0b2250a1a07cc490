/**
 * Issue 21, items 2 and 4 (DESIGN.md section 6): **New thread** opens the home composer as a
 * draft, and the thread exists on the server only from its first send; empty threads are not
 * listed. **Stop** leaves a visible "Stopped" marker (`data-turn-outcome="cancelled"`) and the
 * sidebar's title follows the thread's events without a reload; with a prompt waiting behind
 * the reply, Stop stops the reply (the prompt is answered next).
 */
import type { Page, Request } from "@playwright/test";
import {
  assistantBodies,
  composer,
  DEMO_ANSWER_END,
  expect,
  openNewThreadDraft,
  sendPrompt,
  THREAD_PATH,
  test,
  threadIdOf,
  userRows,
} from "./support/fixtures.ts";

/** The fields of `Thread` (@app/protocol) these checks read. */
type Thread = { id: string; title: string; messageCount: number };

/** A thread's entry in the sidebar. */
const listItem = (page: Page, threadId: string) =>
  page.locator(`.thread-list [data-thread-id="${threadId}"]`);

/** Every `POST /api/threads` the page sends (a thread created on the server). */
function recordThreadCreations(page: Page): Request[] {
  const creations: Request[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/threads") {
      creations.push(request);
    }
  });
  return creations;
}

const sidebarItems = (page: Page) =>
  page.getByRole("navigation", { name: "Threads" }).getByRole("link");

test("New thread opens a draft: no thread exists on the server until the first send", async ({
  page,
  rig,
}) => {
  // An empty thread (as every New thread click made before) is not listed.
  const empty = (await (await page.request.post("/api/threads", { data: {} })).json()) as Thread;
  const creations = recordThreadCreations(page);
  await page.goto(rig.seededThreadPath);
  await expect(sidebarItems(page).first()).toBeVisible();
  await expect(listItem(page, empty.id)).toHaveCount(0);
  const listedBefore = await sidebarItems(page).count();
  const firstBefore = await sidebarItems(page).first().getAttribute("data-thread-id");

  await openNewThreadDraft(page);
  // Again while already home: still a draft, the composer focused.
  await composer(page).blur();
  await openNewThreadDraft(page);
  expect(creations).toHaveLength(0);
  await expect(sidebarItems(page)).toHaveCount(listedBefore);
  // No untitled ("New thread") entry: the titles of threads created so far are all prompts.
  await expect(
    page.locator(".thread-list .thread-list__title").filter({ hasText: /^New thread$/ }),
  ).toHaveCount(0);

  const prompt = "Drafted from the button, sent once";
  await sendPrompt(page, prompt);
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  expect(creations).toHaveLength(1);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  const threadId = threadIdOf(page);
  const { thread } = (await (await page.request.get(`/api/threads/${threadId}`)).json()) as {
    thread: Thread;
  };
  await expect(listItem(page, threadId)).toContainText(thread.title);
  // The list is windowed (only rows near the view are in the DOM): the new thread is listed
  // once, first, above the thread that was first before.
  await expect(listItem(page, threadId)).toHaveCount(1);
  await expect(sidebarItems(page).nth(0)).toHaveAttribute("data-thread-id", threadId);
  await expect(sidebarItems(page).nth(1)).toHaveAttribute("data-thread-id", firstBefore!);
});

test("Stop marks the reply Stopped, and the sidebar shows the thread's title without a reload", async ({
  page,
}) => {
  await page.goto("/");
  await sendPrompt(page, "Stop me midway: write a long reply please");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  const threadId = threadIdOf(page);
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(assistantBodies(page).last()).toContainText("Part 2");
  await stop.click();
  // Focus goes to the composer at once (the button is disabled, then gone): never <body>.
  await expect(composer(page)).toBeFocused();
  await expect(stop).toHaveCount(0);
  await expect(composer(page)).toBeFocused();

  const reply = page.locator('[data-role="assistant"]').last();
  await expect(reply).toHaveAttribute("data-turn-outcome", "cancelled");
  await expect(reply.getByText("Stopped", { exact: true })).toBeVisible();
  // The marker is not part of the reply's text (copy, citations).
  await expect(assistantBodies(page).last()).not.toContainText("Stopped");

  const { thread } = (await (await page.request.get(`/api/threads/${threadId}`)).json()) as {
    thread: Thread;
  };
  expect(thread.title).not.toBe("New thread");
  const item = listItem(page, threadId);
  await expect(item).toContainText(thread.title);
  await expect(item).toContainText(`${thread.messageCount} messages`);

  // After a reload too: the outcome comes from the server's turn status.
  await page.reload();
  await expect(page.locator('[data-role="assistant"]').last()).toHaveAttribute(
    "data-turn-outcome",
    "cancelled",
  );
});

test("Stop with a prompt waiting behind the reply stops the reply; the waiting prompt is answered next", async ({
  page,
}) => {
  await page.goto("/");
  await sendPrompt(page, "Stop me midway: write a long reply please");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  await expect(assistantBodies(page).first()).toContainText("Part 2");
  // Sent while the reply streams: it waits for its turn (also "running" on the server).
  await sendPrompt(page, "And a short one after it");
  await expect(page.locator('[data-role="user"]')).toHaveCount(2);
  const stop = page.getByRole("button", { name: "Stop" });
  await stop.click();

  const replies = page.locator('[data-role="assistant"]');
  await expect(replies.first()).toHaveAttribute("data-turn-outcome", "cancelled");
  // The waiting prompt was not the one stopped: it runs now and is answered in full.
  await expect(replies).toHaveCount(2);
  await expect(replies.nth(1)).toContainText(DEMO_ANSWER_END);
  await expect(replies.nth(1)).toHaveAttribute("data-status", "complete");
  await expect(replies.nth(1)).not.toHaveAttribute("data-turn-outcome", /.+/);
  await expect(stop).toHaveCount(0);
});

test("a failed turn shows Failed with its reason", async ({ page }) => {
  await page.goto("/");
  await sendPrompt(page, "fail please, on purpose for the marker");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  const outcome = page.locator('[data-turn-outcome="failed"]');
  await expect(outcome).toHaveCount(1);
  await expect(outcome.getByText("Failed", { exact: true })).toBeVisible();
  await expect(page.getByText(/Demo provider failed on purpose/)).toBeVisible();
});

test("after the first send from the home composer, the thread's composer has focus and gets what is typed next", async ({
  page,
}) => {
  await page.goto("/");
  await sendPrompt(page, "First send, then keep typing");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  // The thread's view is shown (the home composer went away with the home page): its composer
  // has focus, never <body>, and what is typed next lands in it.
  await expect(userRows(page).first()).toContainText("First send, then keep typing");
  await expect(composer(page)).toBeFocused();
  await page.keyboard.type("typed without clicking");
  await expect(composer(page)).toHaveText("typed without clicking");

  // The same after a click on Send (the button goes away with the home page too).
  await openNewThreadDraft(page);
  await page.keyboard.insertText("Sent with the button");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(userRows(page).first()).toContainText("Sent with the button");
  await expect(composer(page)).toBeFocused();
  await page.keyboard.type("and typed on");
  await expect(composer(page)).toHaveText("and typed on");
});
