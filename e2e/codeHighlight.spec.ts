/**
 * Highlighted code (apps/web/src/markdown/codeHighlight.ts): the demo answer's fenced code block
 * is highlighted once its grammar has loaded, with exactly the text of the Markdown source, so a
 * quote selected across highlighted tokens cites that text and its chip resolves and highlights
 * it again.
 */
import { parseAssistantCitationHref } from "../packages/citations/src/index.ts";
import {
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  highlightedText,
  row,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

test("a quote across highlighted code tokens cites the exact code and its chip resolves it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await createThreadFromUi(page);
  await sendPrompt(page, "Show me a small code sample");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();

  const answer = page.locator('[data-role="assistant"][data-kind="answer"]').first();
  const code = answer.locator("pre code");
  // Highlighted: token spans inside the code, added in place once the grammar chunk loaded.
  await expect(code).toHaveAttribute("data-highlighted", "");
  expect(await code.locator("span[class^='hljs-']").count()).toBeGreaterThan(0);

  // The Markdown source's code is exactly the displayed text.
  const messageText = await page.evaluate(
    async (id) => {
      const threadId = location.pathname.split("/")[2];
      const res = await fetch(`/api/threads/${threadId}/messages?limit=10`);
      const body = (await res.json()) as { messages: { id: string; text: string }[] };
      return body.messages.find((m) => m.id === id)?.text ?? "";
    },
    await answer.getAttribute("data-message-id"),
  );
  const fence = /```\w+\n([\s\S]*?)\n```/.exec(messageText);
  expect(fence).not.toBeNull();
  expect(await code.textContent()).toBe(`${fence![1]}\n`);

  // Select the code's first line across its token spans: double-click its first word, then
  // extend to the end of the line with the keyboard (the toolbar opens at the selection end).
  const firstLine = fence![1]!.split("\n")[0]!;
  const start = await code.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const first = walker.nextNode() as Text;
    const range = document.createRange();
    range.setStart(first, 0);
    range.setEnd(first, 1);
    const rect = range.getBoundingClientRect();
    return { x: rect.left + 2, y: rect.top + rect.height / 2 };
  });
  await page.mouse.dblclick(start.x, start.y);
  await page.keyboard.press("Shift+End");
  const cite = page.getByRole("button", { name: "Cite in composer" });
  await expect(cite).toBeVisible();
  await cite.click();
  await expect(page.locator("[data-composer-citation-chip]")).toHaveCount(1);
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await expect(comment).toBeVisible();
  await comment.press("Escape");

  // The citation holds exactly the code line.
  const threadId = new URL(page.url()).pathname.split("/")[2]!;
  // The draft is saved shortly after the edit.
  const draftKey = `composer:draft:v1:${threadId}`;
  const readDraft = () => page.evaluate((key) => localStorage.getItem(key) ?? "", draftKey);
  await expect.poll(readDraft).toContain("t3-citation://");
  const draft = await readDraft();
  const href = /\((t3-citation:\/\/[^\s)]+)\)/.exec(draft)?.[1] ?? "";
  const citation = parseAssistantCitationHref(href);
  expect(citation?.text).toBe(firstLine);

  await composer(page).press("Enter");
  const sentChip = page.locator('[data-role="user"] [data-assistant-citation-chip]');
  await expect(sentChip).toBeVisible();
  await expect(page.getByText("I received 1 citation:")).toBeVisible();

  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await sentChip.click();
  await expect(row(page, citation!.messageId)).toHaveAttribute("data-citation-highlighted", "true");
  await expect.poll(() => highlightedText(page)).toEqual([firstLine]);
  // Still highlighted code: resolution did not need plain text.
  await expect(code).toHaveAttribute("data-highlighted", "");
});
