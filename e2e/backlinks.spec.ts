/**
 * Backlinks (issue 24), what is built so far: cited words of an answer carry the persistent
 * `assistant-citation-cited` highlight, resolved against the rendered text, in the thread's own
 * view as new prompts cite it (the `message.cited` event) and after a reload (`citedBy` on the
 * page), and the "Cited N×" control lists the citing messages in a labelled dialog. Jumping from
 * an entry to the citing chip is not built yet.
 */
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
