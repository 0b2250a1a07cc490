/**
 * What citation chips show and how their comment editor handles focus (issue 15): a commented
 * chip shows the comment and, apart from it, a quote preview, with both in its accessible
 * description, in the composer and in the sent message (where "Show full quote" reads them in
 * full without hovering); the comment editor keeps focus inside, gives it back to the composer
 * right after the chip on Save, Escape and Cancel, and never covers the composer; copying a sent
 * message gives Markdown with the links as text/plain and readable blockquotes as text/html.
 */

import type { Page } from "@playwright/test";
import {
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

const answerParagraph = (page: Page, text: string) =>
  page
    .locator('[data-role="assistant"][data-kind="answer"] [data-assistant-citation-source] p')
    .filter({ hasText: text })
    .first();

/** Cites the answer's "To repeat: …" paragraph with the mouse; the comment editor opens. */
async function citeRepeatedSentence(page: Page): Promise<string> {
  const paragraph = answerParagraph(page, "To repeat:");
  const quote = ((await paragraph.textContent()) ?? "").trim();
  await paragraph.click({ clickCount: 3 });
  await page.getByRole("button", { name: "Cite in composer" }).click();
  await expect(page.getByRole("textbox", { name: "Comment on quote" })).toBeFocused();
  return quote;
}

function draftOf(page: Page, threadId: string): Promise<string | null> {
  return page.evaluate((id) => localStorage.getItem(`composer:draft:v1:${id}`), threadId);
}

test("a commented chip shows the comment and the quote apart, in the composer and once sent", async ({
  page,
}) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "Chip content please");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const quote = await citeRepeatedSentence(page);
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await comment.fill("Why is this bold?");
  await comment.press("Enter");

  // Composer chip: the comment is its label (and name), the quote a separate, secondary part.
  const chip = page.locator("[data-composer-citation-chip] [role='button']");
  await expect(chip).toHaveAccessibleName("Why is this bold?");
  await expect(chip.locator(".composer-chip__label")).toHaveText("Why is this bold?");
  await expect(chip.locator(".composer-chip__quote")).toHaveText(/^To repeat: The demo provider/);
  await expect(chip).toHaveAccessibleDescription(`Quote: ${quote} Comment: Why is this bold?`);

  await page.getByRole("button", { name: "Send" }).click();
  const sent = page.locator('[data-role="user"] [data-assistant-citation-chip]');
  await expect(sent).toHaveAccessibleName("Assistant quote: Why is this bold?");
  await expect(sent.locator(".citation-chip__quote")).toHaveText(/^To repeat: The demo provider/);
  await expect(sent).toHaveAccessibleDescription(`Quote: ${quote} Comment: Why is this bold?`);
  // Read in full without hovering (touch and keyboard alike): the disclosure beside the chip.
  const more = page.getByRole("button", { name: "Show full quote" });
  await expect(more).toHaveAttribute("aria-expanded", "false");
  await more.click();
  const details = page.locator(".citation-chip__details");
  await expect(details).toBeVisible();
  await expect(details).toContainText(quote);
  await expect(details).toContainText("Comment: Why is this bold?");
  await page.getByRole("button", { name: "Hide full quote" }).click();
  await expect(details).toHaveCount(0);
});

test("comment editor focus: Tab stays inside, Escape, Cancel and Save return to the composer after the chip", async ({
  page,
}) => {
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Focus paths please");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  await citeRepeatedSentence(page);
  const editor = page.getByRole("dialog", { name: "Edit quote comment" });
  const comment = editor.getByRole("textbox", { name: "Comment on quote" });
  const cancel = editor.getByRole("button", { name: "Cancel" });
  const save = editor.getByRole("button", { name: "Save" });

  // It never covers the composer.
  const editorBox = (await editor.boundingBox())!;
  const composerBox = (await page.locator(".composer").boundingBox())!;
  expect(editorBox.y + editorBox.height).toBeLessThanOrEqual(composerBox.y);

  // Tab cycles textbox → Cancel → Save → textbox; Shift+Tab goes back round.
  await page.keyboard.press("Tab");
  await expect(cancel).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(save).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(comment).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(save).toBeFocused();

  // Escape from the Save button cancels; focus goes to the composer right after the chip.
  await page.keyboard.press("Escape");
  await expect(editor).toBeHidden();
  await expect(composer(page)).toBeFocused();
  await page.keyboard.insertText("A");
  await expect.poll(() => draftOf(page, threadId)).toMatch(/^\[Assistant quote\]\([^)]*\) A$/);

  // Reopen from the keyboard: Shift+Tab... the chip is focusable; Enter opens its editor.
  const chip = page.locator("[data-composer-citation-chip] [role='button']");
  await chip.focus();
  await page.keyboard.press("Enter");
  await expect(comment).toBeFocused();
  // Cancel pressed with the keyboard.
  await page.keyboard.press("Tab");
  await expect(cancel).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor).toBeHidden();
  await expect(composer(page)).toBeFocused();
  await page.keyboard.insertText("B");
  await expect.poll(() => draftOf(page, threadId)).toMatch(/^\[Assistant quote\]\([^)]*\) BA$/);

  // Save with the mouse: the comment is kept and focus returns after the chip as well.
  await chip.click();
  await expect(comment).toBeFocused();
  await comment.fill("Saved note");
  await save.click();
  await expect(editor).toBeHidden();
  await expect(chip).toHaveAccessibleName("Saved note");
  await expect(composer(page)).toBeFocused();
  await page.keyboard.insertText("C");
  await expect
    .poll(() => draftOf(page, threadId))
    .toMatch(/^\[Assistant quote\]\([^)]*comment=Saved\+note\) CBA$/);
});

test("copying a sent message gives Markdown links as text/plain and readable quotes as text/html", async ({
  page,
}) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "Copy formats please");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const quote = await citeRepeatedSentence(page);
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await comment.fill("Is this <b>right</b>?");
  await comment.press("Enter");
  await page.keyboard.insertText("Please check");
  await page.getByRole("button", { name: "Send" }).click();
  const userMessage = page
    .locator('[data-role="user"]')
    .filter({ has: page.locator("[data-assistant-citation-chip]") });
  await expect(userMessage).toBeVisible();

  const readClipboard = () =>
    page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      const read = async (type: string) =>
        item!.types.includes(type) ? await (await item!.getType(type)).text() : null;
      return { plain: await read("text/plain"), html: await read("text/html") };
    });

  // "Copy message".
  await userMessage.getByRole("button", { name: "Copy message" }).click();
  await expect(userMessage.getByRole("button", { name: "Copy message" })).toHaveText("Copied");
  let copied = await readClipboard();
  expect(copied.plain).toMatch(/^\[Assistant quote\]\(t3-citation:\/\/v1\/[^)]+\) Please check$/);
  expect(copied.html).toContain(`<blockquote><p>${quote}</p></blockquote>`);
  expect(copied.html).toContain("<p>Is this &lt;b&gt;right&lt;/b&gt;?</p>");
  expect(copied.html).toContain("<p>Please check</p>");
  expect(copied.html).not.toContain("t3-citation:");

  // A selection copy (Ctrl+C) of the whole message gives the same two flavors.
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await userMessage.locator(".chat-markdown").evaluate((body) => {
    const range = document.createRange();
    range.selectNodeContents(body);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
  });
  await page.keyboard.press("Control+C");
  await expect.poll(async () => (await readClipboard()).plain).toContain("t3-citation://v1/");
  copied = await readClipboard();
  expect(copied.plain).toMatch(/^\[Assistant quote\]\(t3-citation:\/\/v1\/[^)]+\) Please check/);
  expect(copied.html).toContain(`<blockquote><p>${quote}</p></blockquote>`);
  expect(copied.html).not.toContain("t3-citation:");
});
