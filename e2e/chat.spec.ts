/**
 * Sending prompts end to end: a streamed reply that grows while it arrives and is still there
 * after a reload, a failing turn, a question answered from the composer, and model or user text
 * that tries to inject HTML.
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

/**
 * Records, per assistant body, each distinct text length it shows (a MutationObserver sample
 * after every DOM change), so a spec can tell a streamed reply from one that appeared at once;
 * and any paragraph that ever started with a pipe (a table shown as raw text mid-stream).
 */
async function recordAssistantTextLengths(page: import("@playwright/test").Page): Promise<void> {
  await page.evaluate(() => {
    const samples: Record<string, number[]> = {};
    const rawPipes: string[] = [];
    Object.assign(window, { __e2eTextLengths: samples, __e2eRawPipes: rawPipes });
    const record = () => {
      for (const el of document.querySelectorAll("[data-assistant-citation-source]")) {
        const id = el.getAttribute("data-assistant-citation-source") ?? "";
        const length = (el.textContent ?? "").length;
        const list = samples[id] ?? [];
        samples[id] = list;
        if (list[list.length - 1] !== length) list.push(length);
        for (const p of el.querySelectorAll("p")) {
          const text = (p.textContent ?? "").trimStart();
          if (text.startsWith("|")) rawPipes.push(text);
        }
      }
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

test("a prompt streams a reply that grows, and both survive a reload", async ({ page }) => {
  await createThreadFromUi(page);
  await recordAssistantTextLengths(page);
  const prompt = "Explain cursor pagination with an example";
  await sendPrompt(page, prompt);

  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
  const answer = assistantBodies(page).last();
  await expect(answer).toContainText(DEMO_ANSWER_END);
  await expect(composer(page)).toHaveText("");

  const answerId = await answer.getAttribute("data-assistant-citation-source");
  expect(answerId).toBeTruthy();
  const lengths = await page.evaluate(
    (id) =>
      (window as unknown as { __e2eTextLengths: Record<string, number[]> }).__e2eTextLengths[id] ??
      [],
    answerId ?? "",
  );
  // Streamed: the body showed several partial lengths before the final one, and grew overall.
  expect(lengths.length, `text lengths seen: ${lengths.join(", ")}`).toBeGreaterThanOrEqual(3);
  expect(lengths[lengths.length - 1]).toBeGreaterThan(lengths[0] ?? 0);
  // Its table appeared as a table, never as lines of pipes while its first rows arrived.
  await expect(answer.getByRole("table")).toBeVisible();
  const rawPipes = await page.evaluate(
    () => (window as unknown as { __e2eRawPipes: string[] }).__e2eRawPipes,
  );
  expect(rawPipes).toEqual([]);
  const finalText = (await answer.textContent()) ?? "";

  await page.reload();
  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
  const reloaded = page.locator(`[data-assistant-citation-source="${answerId}"]`);
  await expect(reloaded).toBeVisible();
  await expect(reloaded).toHaveText(finalText);
});

test("a failing turn shows its error and keeps the user's message", async ({ page }) => {
  await createThreadFromUi(page);
  const prompt = "fail please, this is on purpose";
  await sendPrompt(page, prompt);

  const error = page.getByText(/Demo provider failed on purpose/);
  await expect(error).toBeVisible();
  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();

  await page.reload();
  await expect(userRows(page).filter({ hasText: prompt })).toBeVisible();
  await expect(page.getByText(/Demo provider failed on purpose/)).toBeVisible();
});

test("a pending question is answered from the composer", async ({ page }) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "Please ask me which option to use");

  await expect(page.getByText("Which option should I use?").first()).toBeVisible();
  const box = composer(page);
  await box.click();
  await box.pressSequentially("B");
  await box.press("Enter");

  // The demo quotes the answer verbatim: "- `choice`: `B`".
  const answer = assistantBodies(page).last();
  await expect(answer).toContainText(DEMO_ANSWER_END);
  await expect(answer).toContainText("choice: B");
  await expect(page.getByRole("region", { name: "Question from the assistant" })).toHaveCount(0);
});

test("HTML in a message is shown as text, never run", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await createThreadFromUi(page);
  const prompt =
    'Render this <img src=x onerror="window.__e2eInjected=1;alert(1)"> and <script>window.__e2eInjected=2</script> text';
  await sendPrompt(page, prompt);

  const userRow = userRows(page).filter({ hasText: "<img src=x onerror=" });
  await expect(userRow).toBeVisible();
  await expect(userRow).toContainText("<script>window.__e2eInjected=2</script>");
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);

  await expect(page.locator("[data-message-id] img[src='x']")).toHaveCount(0);
  await expect(page.locator("[data-message-id] script")).toHaveCount(0);
  expect(await page.evaluate(() => "__e2eInjected" in window)).toBe(false);
  expect(dialogs).toEqual([]);
});

test("links in a message open safely; script links are not clickable", async ({ page }) => {
  await createThreadFromUi(page);
  await sendPrompt(
    page,
    "Links: [the docs](https://example.com/docs) and [run me](javascript:window.__e2eInjected=3) end",
  );
  const userRow = userRows(page).filter({ hasText: "Links:" });
  await expect(userRow).toBeVisible();

  const docs = userRow.getByRole("link", { name: "the docs" });
  await expect(docs).toHaveAttribute("href", "https://example.com/docs");
  await expect(docs).toHaveAttribute("target", "_blank");
  await expect(docs).toHaveAttribute("rel", /noopener/);
  await expect(userRow).toContainText("run me");
  await expect(userRow.getByRole("link", { name: "run me" })).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
});

test("a right-to-left prompt reads right to left after sending, as in the composer", async ({
  page,
}) => {
  await createThreadFromUi(page);
  await sendPrompt(page, "שלום עולם, this is Hebrew first");
  await sendPrompt(page, "English first, then עברית");
  const prompts = page.locator('[data-role="user"] .message__body p');
  await expect(prompts).toHaveCount(2);
  const direction = (index: number) =>
    prompts.nth(index).evaluate((p) => getComputedStyle(p).direction);
  expect(await direction(0)).toBe("rtl");
  expect(await direction(1)).toBe("ltr");
  // Code stays left to right.
  const code = page.locator('[data-role="assistant"] pre').first();
  await expect(code).toBeVisible();
  expect(await code.evaluate((pre) => getComputedStyle(pre).direction)).toBe("ltr");
});
