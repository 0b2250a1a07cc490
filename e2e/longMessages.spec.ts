/**
 * Long messages fold (apps/web/src/timeline/messageFold.ts): over ~25 lines a message shows its
 * first lines and "Show more" / "Show less". A folded message is folded from its first render
 * (no row moves later), keeps its whole text in the DOM for citations, unfolds when a citation
 * navigates into it, and unfolds when a selection reaches its clipped part.
 */
import type { Locator } from "@playwright/test";
import { parseAssistantCitationHref } from "../packages/citations/src/index.ts";
import {
  assistantBodies,
  composer,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  highlightedText,
  row,
  sendPrompt,
  test,
  threadIdOf,
  userRows,
} from "./support/fixtures.ts";

const top = async (locator: Locator) => (await locator.boundingBox())!.y;

/** Viewport rectangle of the first occurrence of `word` in `root`'s text. */
function wordRect(root: Locator, word: string) {
  return root.evaluate((element, needle) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node as Text).data.indexOf(needle);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + needle.length);
      const r = range.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, top: r.top, bottom: r.bottom };
    }
    throw new Error(`"${needle}" is not in the element`);
  }, word);
}

/** The bottom edge of what a folded body shows (its clip box). */
function clipBottom(article: Locator) {
  return article.evaluate(
    (element) => element.querySelector(".chat-markdown--folded")!.getBoundingClientRect().bottom,
  );
}

test("a 120,000-character message folds from its first render; Show more and Show less keep the rows in view still", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await createThreadFromUi(page);
  const box = composer(page);
  await box.click();
  const prompt = "lorem ipsum ".repeat(9_900).trim(); // 118,799 characters, one paragraph
  await page.evaluate((text) => navigator.clipboard.writeText(text), prompt);
  await box.press("ControlOrMeta+v");
  await expect.poll(() => box.evaluate((el) => (el.textContent ?? "").length)).toBe(prompt.length);
  await box.press("Enter");

  const user = userRows(page).first();
  await expect(user).toHaveAttribute("data-long-message", "folded");
  const foldedHeight = (await user.boundingBox())!.height;
  // Sixteen lines of text and its toggle, not a 35,000 px bubble.
  expect(foldedHeight).toBeLessThan(600);
  // The whole text is still in the DOM (citations and copy use it), only clipped.
  expect(await user.locator(".message__body").evaluate((el) => el.textContent?.length)).toBe(
    prompt.length,
  );
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  // The reply arriving below did not re-fold or resize it.
  expect((await user.boundingBox())!.height).toBe(foldedHeight);

  // Show more: the message opens downwards; its top (and everything above) stays put.
  const more = user.getByRole("button", { name: "Show more" });
  await more.scrollIntoViewIfNeeded();
  const userTop = await top(user);
  await more.click();
  await expect(user).toHaveAttribute("data-long-message", "unfolded");
  await expect.poll(async () => (await user.boundingBox())!.height).toBeGreaterThan(20_000);
  expect(Math.abs((await top(user)) - userTop)).toBeLessThanOrEqual(2);

  // Show less at the bottom of the open message: the button stays under the pointer and the
  // answer below does not move; the message folds upwards.
  const less = user.getByRole("button", { name: "Show less" });
  await less.scrollIntoViewIfNeeded();
  const answer = page.locator('[data-role="assistant"][data-kind="answer"]').last();
  const lessTop = await top(less);
  const answerTop = await top(answer);
  await less.click();
  await expect(user).toHaveAttribute("data-long-message", "folded");
  const moreAgain = user.getByRole("button", { name: "Show more" });
  await expect.poll(() => top(moreAgain)).toBeGreaterThan(lessTop - 2);
  expect(Math.abs((await top(moreAgain)) - lessTop)).toBeLessThanOrEqual(2);
  expect(Math.abs((await top(answer)) - answerTop)).toBeLessThanOrEqual(2);
});

test("a citation into a folded answer unfolds it and highlights the words; selecting into the fold opens it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await createThreadFromUi(page);
  const threadId = threadIdOf(page);

  // A 40-line answer: the demo quotes a multi-line answer to its question in a code block.
  await sendPrompt(page, "Please ask me which option to use");
  await expect(page.getByText("Which option should I use?").first()).toBeVisible();
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1} says marker${i + 1} here`);
  const box = composer(page);
  await box.click();
  await page.keyboard.insertText(lines.join("\n"));
  await box.press("Enter");
  const longAnswer = page
    .locator('[data-role="assistant"][data-kind="answer"]')
    .filter({ hasText: "marker40" });
  // The echo streams in about 150 chunks: on a loaded machine (load 29) that took 12 s.
  await expect(longAnswer).toContainText(DEMO_ANSWER_END, { timeout: 60_000 });
  // It streamed in while we watched, so it stays open.
  await expect(longAnswer).toHaveAttribute("data-long-message", "unfolded");

  // Cite a word deep in it (selecting in an open long message works as anywhere else).
  const body = longAnswer.locator("[data-assistant-citation-source]");
  await page.getByRole("button", { name: "Cite in composer" }).waitFor({ state: "detached" });
  const word = await wordRect(body, "marker35");
  await page.mouse.dblclick(word.x, word.y);
  await page.getByRole("button", { name: "Cite in composer" }).click();
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await expect(comment).toBeVisible();
  await comment.press("Escape");
  // The draft is saved shortly after the edit.
  const draftKey = `composer:draft:v1:${threadId}`;
  const readDraft = () => page.evaluate((key) => localStorage.getItem(key) ?? "", draftKey);
  await expect.poll(readDraft).toContain("t3-citation://");
  const draft = await readDraft();
  const citation = parseAssistantCitationHref(
    /\((t3-citation:\/\/[^\s)]+)\)/.exec(draft)?.[1] ?? "",
  );
  expect(citation?.text).toBe("marker35");
  await box.press("Enter");
  await expect(page.getByText("I received 1 citation:")).toBeVisible();

  // Opened afresh, the long answer is folded and the cited word is clipped away.
  await page.reload();
  const source = row(page, citation!.messageId);
  await expect(source).toHaveAttribute("data-long-message", "folded");
  expect((await wordRect(body, "marker35")).top).toBeGreaterThan(await clipBottom(source));

  // Following the chip unfolds it and highlights exactly the cited word.
  await page.locator('[data-role="user"] [data-assistant-citation-chip]').click();
  await expect(source).toHaveAttribute("data-long-message", "unfolded");
  await expect(source).toHaveAttribute("data-citation-highlighted", "true");
  await expect.poll(() => highlightedText(page)).toEqual(["marker35"]);
  await page.keyboard.press("Escape");

  // Fold it again; a keyboard selection extended past the fold opens the message, so what is
  // selected is always on screen.
  await source.getByRole("button", { name: "Show less" }).click();
  await expect(source).toHaveAttribute("data-long-message", "folded");
  await source.scrollIntoViewIfNeeded();
  // The answer's first words are above the fold; its 40 quoted lines are all below it.
  const visible = await wordRect(body, "demo");
  expect(visible.bottom).toBeLessThan(await clipBottom(source));
  await page.mouse.dblclick(visible.x, visible.y);
  for (let i = 0; i < 20; i++) await page.keyboard.press("Shift+ArrowDown");
  await expect(source).toHaveAttribute("data-long-message", "unfolded");
});
