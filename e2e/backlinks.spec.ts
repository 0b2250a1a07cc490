/**
 * Backlinks (issue 24), what is built so far: cited words of an answer carry the persistent
 * `assistant-citation-cited` highlight, resolved against the rendered text, in the thread's own
 * view as new prompts cite it (the `message.cited` event) and after a reload (`citedBy` on the
 * page), and the "Cited N×" control lists the citing messages in a labelled dialog; each entry
 * jumps to its chip (in this thread or another one) and Back returns to the control; the answer
 * is described for screen readers; axe-core finds nothing serious in the list in either scheme;
 * from a detached window of old history the jump needs no paging, and Back returns.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { serializeAssistantCitation } from "../packages/citations/src/index.ts";
import {
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

async function citedMarks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const marks = CSS.highlights.get("assistant-citation-cited");
    return marks ? [...marks].map((range) => (range as Range).toString()).sort() : [];
  });
}

test("an answer cited from two messages shows both cited ranges, live in a second browser and after a reload", async ({
  page,
  browser,
  rig,
}) => {
  test.setTimeout(90_000);
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Tell me about backlinks");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const answerId = await page
    .locator('[data-role="assistant"][data-kind="answer"]')
    .first()
    .getAttribute("data-message-id");
  // A second reader of the same thread.
  const other = await browser.newPage();
  await other.goto(page.url());
  await expect(other.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  expect(await citedMarks(page)).toEqual([]);

  const cite = (text: string, start: number, suffix: string) =>
    serializeAssistantCitation({
      version: 1,
      environmentId: rig.environmentId,
      threadId,
      messageId: answerId!,
      text,
      start,
      end: start + text.length,
      prefix: "",
      suffix,
    });
  const whole = cite(DEMO_ANSWER_END, 0, "");
  // "no citations", told apart by what follows it.
  const part = cite("no citations", 11, " with this message.");
  for (const link of [whole, part]) {
    const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
      data: { input: `About ${link}` },
    });
    expect(sent.ok()).toBe(true);
  }
  const expected = [DEMO_ANSWER_END, "no citations"].sort();
  // Live, through message.cited, in both views.
  await expect.poll(() => citedMarks(other)).toEqual(expected);
  await expect.poll(() => citedMarks(page)).toEqual(expected);
  // From the page's citedBy after a reload.
  await other.reload();
  await expect(other.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  await expect.poll(() => citedMarks(other)).toEqual(expected);

  // "Cited 2×", named "Cited in 2 messages", in the tab order; its list is a labelled dialog.
  const control = other.getByRole("button", { name: "Cited in 2 messages", exact: true });
  await expect(control).toHaveText("Cited 2×");
  await control.focus();
  await other.keyboard.press("Enter");
  const dialog = other.getByRole("dialog", { name: "Cited in 2 messages" });
  await expect(dialog).toBeFocused();
  await expect(dialog.getByRole("listitem")).toHaveText([
    new RegExp(`“${DEMO_ANSWER_END}”`),
    /“no citations”/,
  ]);
  await other.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(control).toBeFocused();
  await other.close();
});

/** A thread with one answer, and a function that makes a citation of (part of) that answer. */
async function citedAnswer(page: Page, environmentId: string) {
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Tell me about backlinks");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const answerId = (await page
    .locator('[data-role="assistant"][data-kind="answer"]')
    .first()
    .getAttribute("data-message-id"))!;
  const cite = (comment: string, text = DEMO_ANSWER_END, start = 0, suffix = "") =>
    serializeAssistantCitation({
      version: 1,
      environmentId,
      threadId,
      messageId: answerId,
      text,
      start,
      end: start + text.length,
      prefix: "",
      suffix,
      comment,
    });
  return { threadId, answerId, cite };
}

/** Sends a prompt through the API; its user message id. */
async function postPrompt(page: Page, threadId: string, input: string): Promise<string> {
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, { data: { input } });
  expect(sent.ok()).toBe(true);
  return ((await sent.json()) as { message: { id: string } }).message.id;
}

/** Waits until the thread shows `count` answers and none is still streaming. */
async function repliesDone(page: Page, count: number): Promise<void> {
  await expect(page.locator('[data-role="assistant"][data-kind="answer"]')).toHaveCount(count);
  await expect(page.locator('[data-message-id][data-status="streaming"]')).toHaveCount(0);
}

/** The centre (client coordinates) of the backlink mark over `text`. */
function markCentre(page: Page, text: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((text) => {
    const marks = CSS.highlights.get("assistant-citation-cited");
    const range = [...(marks ?? [])].find((mark) => (mark as Range).toString() === text) as
      | Range
      | undefined;
    const rect = range?.getBoundingClientRect();
    return rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : null;
  }, text);
}

/** The text the jump pulse (`assistant-citation`) paints, and whether it is in the viewport. */
function pulsed(page: Page): Promise<{ text: string; inView: boolean } | null> {
  return page.evaluate(() => {
    const pulse = CSS.highlights.get("assistant-citation");
    const range = pulse ? ([...pulse][0] as Range | undefined) : undefined;
    if (!range) return null;
    const rect = range.getBoundingClientRect();
    return {
      text: range.toString(),
      inView: rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight,
    };
  });
}

test("the list jumps to the second citing message's chip, and Back returns to the answer", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const { threadId, answerId, cite } = await citedAnswer(page, rig.environmentId);
  await postPrompt(page, threadId, `First ${cite("first look")}`);
  const second = await postPrompt(
    page,
    threadId,
    `Second ${cite("second look", "no citations", 11, " with this message.")}`,
  );
  await repliesDone(page, 3);
  const control = page.getByRole("button", { name: "Cited in 2 messages", exact: true });
  await expect(control).toBeVisible();
  // Screen readers hear the answer described as cited.
  await expect(page.locator(`[data-message-id="${answerId}"]`)).toHaveAccessibleDescription(
    "cited in 2 messages",
  );
  const threadPath = new URL(page.url()).pathname;

  await control.click();
  const dialog = page.getByRole("dialog", { name: "Cited in 2 messages" });
  await dialog.getByRole("link", { name: /second look/ }).click();
  await expect(dialog).toHaveCount(0);
  const citing = page.locator(`[data-message-id="${second}"]`);
  await expect(citing).toHaveAttribute("data-citation-highlighted", "true");
  const chip = citing.locator("[data-assistant-citation-chip]");
  await expect(chip).toBeFocused();
  await expect.poll(() => pulsed(page)).toEqual({ text: await chip.textContent(), inView: true });
  // Still this thread: the jump did not go to the cited answer.
  expect(new URL(page.url()).pathname).toBe(threadPath);

  await page.getByRole("button", { name: "Back to where you were" }).click();
  await expect(control).toBeFocused();
  await expect(page).toHaveURL((url) => url.pathname === threadPath && url.hash === "");
  await expect(page.getByRole("button", { name: "Back to where you were" })).toHaveCount(0);

  // Clicking a mark opens the list too.
  await control.scrollIntoViewIfNeeded();
  const mark = await markCentre(page, "no citations");
  expect(mark).not.toBeNull();
  await page.mouse.click(mark!.x, mark!.y);
  await expect(dialog).toBeVisible();
});

test("a citation from another thread is listed on the source and opens that thread", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const { threadId, cite } = await citedAnswer(page, rig.environmentId);
  const sourcePath = new URL(page.url()).pathname;
  // Titled, so the thread list never shows the quoted demo words as a title (later specs look
  // for those words on the page).
  const created = await page.request.post("/api/threads", {
    data: { title: "Backlinks from another thread" },
  });
  const other = (await created.json()) as { id: string };
  const citing = await postPrompt(page, other.id, `Over here ${cite("from elsewhere")}`);
  await repliesDone(page, 1);

  const control = page.getByRole("button", { name: "Cited in 1 message", exact: true });
  await expect(control).toBeVisible();
  await control.click();
  const dialog = page.getByRole("dialog", { name: "Cited in 1 message" });
  await dialog.getByRole("link", { name: /from elsewhere/ }).click();
  await expect(page).toHaveURL((url) => url.pathname.endsWith(`/${other.id}`));
  const row = page.locator(`[data-message-id="${citing}"]`);
  await expect(row).toHaveAttribute("data-citation-highlighted", "true");
  await expect(row.locator("[data-assistant-citation-chip]")).toBeFocused();

  await page.getByRole("button", { name: "Back to where you were" }).click();
  await expect(page).toHaveURL((url) => url.pathname === sourcePath);
  await expect(control).toBeFocused();
  expect(threadId).not.toBe(other.id);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe-core finds nothing serious in the backlinks list (${colorScheme})`, async ({
    page,
    rig,
  }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme });
    const { threadId, cite } = await citedAnswer(page, rig.environmentId);
    await postPrompt(page, threadId, `First ${cite("first look")}`);
    await repliesDone(page, 2);
    await page.getByRole("button", { name: "Cited in 1 message", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Cited in 1 message" });
    await expect(dialog.getByRole("link", { name: /first look/ })).toBeVisible();
    const results = await new AxeBuilder({ page })
      .include(".cited-by__dialog")
      .withTags(["wcag2a", "wcag2aa"])
      .analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  });
}

test("from a detached window of old history, a backlink jumps to the newest prompt's chip without paging, and Back returns", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  // The seeded thread's last prompt links to answer N-300: open it (a detached window there).
  const cited = rig.seededTurns - 300;
  await page.goto(rig.seededThreadPath);
  await expect(page.getByText(`Answer ${rig.seededTurns} looks at`).first()).toBeVisible();
  const deepChip = page.getByRole("link", {
    name: `Assistant quote: Deep link to turn ${cited}`,
    exact: true,
  });
  await deepChip.click();
  const answer = page.locator('[data-role="assistant"]', { hasText: `Answer ${cited} looks at` });
  await expect(answer).toHaveAttribute("data-citation-highlighted", "true");
  const control = answer.getByRole("button", { name: /^Cited in \d+ messages?$/ });
  await expect(control).toBeVisible();

  const history = { around: 0, before: 0 };
  page.on("request", (request) => {
    const url = request.url();
    if (!/\/messages\?/.test(url)) return;
    if (/[?&]around=/.test(url)) history.around++;
    if (/[?&]before=/.test(url)) history.before++;
  });
  await control.click();
  await page
    .getByRole("dialog")
    .getByRole("link", { name: new RegExp(`Deep link to turn ${cited}`) })
    .click();
  const citing = page.locator('[data-role="user"]', { has: deepChip });
  await expect(citing).toHaveAttribute("data-citation-highlighted", "true");
  await expect(deepChip).toBeFocused();
  await expect(deepChip).toBeInViewport();
  // One request at most (the newest page is kept loaded), and never paging through history.
  expect(history.around).toBeLessThanOrEqual(1);
  expect(history.before).toBe(0);

  await page.getByRole("button", { name: "Back to where you were" }).click();
  await expect(control).toBeFocused();
  await expect(control).toBeInViewport();
});

/** An answer cited once ("first look") by a prompt answered in turn: its "Cited in 1 message". */
async function answerCitedOnce(page: Page, environmentId: string) {
  const { threadId, cite } = await citedAnswer(page, environmentId);
  await postPrompt(page, threadId, `First ${cite("first look")}`);
  await repliesDone(page, 2);
  return page.getByRole("button", { name: "Cited in 1 message", exact: true });
}

test("Tab stays inside the Cited list, wrapping from Close to its first entry", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const control = await answerCitedOnce(page, rig.environmentId);
  await control.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Cited in 1 message" });
  await expect(dialog).toBeFocused();
  const entry = dialog.getByRole("link", { name: /first look/ });
  const close = dialog.getByRole("button", { name: "Close" });
  await page.keyboard.press("Tab");
  await expect(entry).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(close).toBeFocused();
  // Past Close: back to the first entry, never out to <body>.
  await page.keyboard.press("Tab");
  await expect(entry).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(close).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(control).toBeFocused();
});

test("a press outside the Cited list closes it and leaves focus where the press put it", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const control = await answerCitedOnce(page, rig.environmentId);
  await control.click();
  const dialog = page.getByRole("dialog", { name: "Cited in 1 message" });
  await expect(dialog.getByRole("link", { name: /first look/ })).toBeVisible();
  // A press inside the list keeps it open.
  await dialog.getByText("Cited in 1 message").click();
  await expect(dialog).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.click();
  await expect(dialog).toHaveCount(0);
  await expect(box).toBeFocused();
  await page.keyboard.type("typed after");
  await expect(box).toContainText("typed after");
  await expect(control).toHaveAttribute("aria-expanded", "false");
});

/**
 * A titled thread (never titled by the quoted words) whose one prompt holds `link`, opened
 * once `beforeOpen` is done; its chip.
 */
async function citingThread(
  page: Page,
  environmentId: string,
  link: string,
  beforeOpen?: () => Promise<void>,
) {
  const created = await page.request.post("/api/threads", {
    data: { title: "Citing a missing source" },
  });
  const citing = (await created.json()) as { id: string };
  await postPrompt(page, citing.id, `Look at ${link}`);
  await beforeOpen?.();
  await page.goto(`/${environmentId}/${citing.id}`);
  const chip = page.locator("[data-assistant-citation-chip]").first();
  await expect(chip).toBeVisible();
  return chip;
}

test("a chip whose source thread was deleted focuses the notice that says so, quote kept", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const { threadId, cite } = await citedAnswer(page, rig.environmentId);
  const chip = await citingThread(
    page,
    rig.environmentId,
    cite("Kept after deletion"),
    async () => {
      const deleted = await page.request.delete(`/api/threads/${threadId}`, { data: {} });
      expect(deleted.ok()).toBe(true);
    },
  );
  await chip.focus();
  await page.keyboard.press("Enter");
  const status = page.getByRole("status").filter({ hasText: "The source was deleted." });
  // The chip went away with its page: focus is on the notice, not on <body>.
  await expect(status).toBeFocused();
  await expect(page.locator(".thread-view__deleted-quote")).toContainText(DEMO_ANSWER_END);
  await expect(page.locator(".thread-view__deleted-quote")).toContainText("Kept after deletion");
});

test("a chip whose source thread never existed keeps its quote under the same notice", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: rig.environmentId,
    threadId: "nothread",
    messageId: "nomsg",
    text: "hello world",
    start: 0,
    end: 11,
    prefix: "",
    suffix: "",
  });
  const chip = await citingThread(page, rig.environmentId, link);
  await chip.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL((url) => url.pathname.endsWith("/nothread"));
  const status = page.getByRole("status").filter({ hasText: "The source was deleted." });
  await expect(status).toBeFocused();
  await expect(page.locator(".thread-view__deleted-quote")).toContainText("hello world");
});
