/**
 * Issue 33: a thread page carries its newest rows as server-rendered HTML (on screen before any
 * script runs) and its newest page as inert JSON, which the app starts from without fetching the
 * thread again. Hostile message text stays text there: it never runs, loads an image or shows
 * as a citation chip.
 */
import type { Page } from "@playwright/test";
import {
  assistantBodies,
  composer,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
  userRows,
} from "./support/fixtures.ts";

/** A prompt that tries every way out of the page's markup. */
const HOSTILE_LINES = [
  "</script><script>window.__pwned = 1</script>",
  '<img src="/x.png" onerror="window.__pwned = 1">',
  '<a data-assistant-citation-chip href="/x#assistant-citation=x">Assistant quote</a>',
  "Hostile end marker",
];

/** Creates a thread whose one turn (a demo reply) has completed; returns its page path. */
async function threadWith(page: Page, input: string): Promise<string> {
  const created = await page.request.post("/api/threads", { data: {} });
  const thread = (await created.json()) as { id: string; environmentId: string };
  const sent = await page.request.post(`/api/threads/${thread.id}/turns`, { data: { input } });
  expect(sent.ok()).toBe(true);
  await expect
    .poll(async () => {
      const detail = await (await page.request.get(`/api/threads/${thread.id}`)).json();
      return (detail as { activeTurn: unknown }).activeTurn === null;
    })
    .toBe(true);
  return `/${thread.environmentId}/${thread.id}`;
}

test("a thread's newest messages are in the served page, shown with JavaScript off", async ({
  browser,
  rig,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const newest = (await (
      await page.request.get(`/api/threads/${rig.seededThreadId}/messages?limit=1`)
    ).json()) as { messages: { id: string; text: string }[] };
    const last = newest.messages.at(-1)!;
    await page.goto(rig.seededThreadPath);
    const row = page.locator(`#first-rows [data-message-id="${last.id}"]`);
    await expect(row).toBeVisible();
    await expect(row).toBeInViewport();
    await expect(row).toContainText(last.text.split("\n")[0]!.slice(0, 40));
    await expect(page).toHaveTitle("Seeded e2e thread (2000 turns) · Chat");
    // The app's own root is empty: nothing ran.
    await expect(page.locator("#root")).toBeEmpty();
  } finally {
    await context.close();
  }
});

test("hostile text in the served rows stays text: no script, image or chip", async ({
  browser,
  page,
}) => {
  const path = await threadWith(page, HOSTILE_LINES.join("\n\n"));
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const noScript = await context.newPage();
    const images: string[] = [];
    noScript.on("request", (request) => {
      if (request.resourceType() === "image") images.push(request.url());
    });
    await noScript.goto(path);
    const prompt = noScript.locator('#first-rows [data-message-id][data-role="user"]');
    await expect(prompt).toContainText(HOSTILE_LINES[0]!);
    await expect(prompt).toContainText(HOSTILE_LINES[1]!);
    await expect(prompt).toContainText(HOSTILE_LINES[2]!);
    await expect(prompt).toContainText("Hostile end marker");
    await expect(noScript.locator("#first-rows img")).toHaveCount(0);
    await expect(noScript.locator("[data-assistant-citation-chip]")).toHaveCount(0);
    await expect(noScript.locator("#first-rows script")).toHaveCount(0);
    expect(images).toEqual([]);
    // The data block came through whole: the JSON still parses and holds the prompt.
    const data = JSON.parse((await noScript.locator("#first-rows-data").textContent()) ?? "");
    expect(data.page.messages[0].text).toBe(HOSTILE_LINES.join("\n\n"));
  } finally {
    await context.close();
  }

  // With scripts on, the same page runs nothing of the text's and shows it as the app does.
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(path);
  await expect(userRows(page).first()).toContainText("Hostile end marker");
  await expect(page.locator("#first-rows")).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator("[data-assistant-citation-chip]")).toHaveCount(0);
  expect(violations).toEqual([]);
});

test("the app replaces the served rows with its own and never fetches the thread again", async ({
  page,
}) => {
  const path = await threadWith(page, "First rows, first question");
  const threadId = path.split("/")[2]!;
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname === `/api/threads/${threadId}`) requests.push("detail");
    if (
      url.pathname === `/api/threads/${threadId}/messages` &&
      !["before", "after", "around"].some((key) => url.searchParams.has(key))
    )
      requests.push("newest page");
  });
  // Rows of the app's own (in #root) and of the server's, in every frame until the app's show.
  await page.addInitScript(() => {
    const w = window as unknown as { __rowsSeen: { served: number; app: number; both: number } };
    w.__rowsSeen = { served: 0, app: 0, both: 0 };
    const onFrame = () => {
      const served = document.querySelector("#first-rows [data-message-id]") !== null;
      const app = document.querySelector("#root [data-message-id]") !== null;
      if (served) w.__rowsSeen.served++;
      if (app) w.__rowsSeen.app++;
      if (served && app) w.__rowsSeen.both++;
      if (!app) requestAnimationFrame(onFrame);
    };
    requestAnimationFrame(onFrame);
  });
  await page.goto(path);
  await expect(page.locator("#root [data-message-id]").first()).toBeVisible();
  await expect(page.locator("#first-rows")).toHaveCount(0);
  const seen = await page.evaluate(
    () => (window as unknown as { __rowsSeen: Record<string, number> }).__rowsSeen,
  );
  expect(seen.served).toBeGreaterThan(0);
  expect(seen.app).toBeGreaterThan(0);
  // Never two rows for one message on screen.
  expect(seen.both).toBe(0);

  // The page works as before: send, and the reply streams in.
  await sendPrompt(page, "First rows, second question");
  await expect(userRows(page).filter({ hasText: "First rows, second question" })).toBeVisible();
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await expect(composer(page)).toBeVisible();
  // Everything came from the page itself: no detail, no newest page.
  expect(requests).toEqual([]);
});
