/**
 * Assistant citations end to end, against the demo provider: selecting answer text offers
 * "Cite in composer", which inserts a chip and opens its comment editor; the sent message shows a
 * read-only chip, the provider received the expanded citation, and clicking the chip reveals and
 * highlights the cited text, which stays when the list settles back at its end on its own (also
 * in older history of the seeded 2,000-turn thread, after loading one window around it; deeper
 * jumps are in navigation.spec.ts). Model output never renders a chip.
 * A user's link inside a code span or after `\[` is a chip too, and a chip clicked at the end
 * while a reply streams keeps its source in view.
 */

import type { Page } from "@playwright/test";
import {
  type AssistantCitation,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
  serializeAssistantCitation,
} from "../packages/citations/src/index.ts";
import {
  controlThreadEvents,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  highlightedText,
  row,
  sendPrompt,
  test,
  withoutFirstRows,
} from "./support/fixtures.ts";
import type { RigState } from "./support/rig.ts";

const answerBodies = (page: Page) =>
  page.locator('[data-role="assistant"][data-kind="answer"] [data-assistant-citation-source]');

test("cite answer text, comment on it, send it, and follow the chip back to the source", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Explain cursor pagination briefly");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();

  // Triple-click selects one paragraph; the toolbar opens after the repeat-click window.
  const paragraph = answerBodies(page).first().locator("p").nth(1);
  const paragraphText = ((await paragraph.textContent()) ?? "").trim();
  await paragraph.click({ clickCount: 3 });
  const cite = page.getByRole("button", { name: "Cite in composer" });
  await expect(cite).toBeVisible();
  await cite.click();

  await expect(page.locator("[data-composer-citation-chip]")).toHaveCount(1);
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  await expect(comment).toBeVisible();
  // The comment editor sits beside the cited source text, which carries the editing highlight.
  await expect(page.locator("[data-composer-citation-editor]")).toHaveAttribute(
    "data-anchor",
    "source",
  );
  expect(await page.evaluate(() => CSS.highlights.has("assistant-citation-editing"))).toBe(true);
  await comment.fill("Check this claim");
  await comment.press("Enter");
  await expect(comment).toBeHidden();
  await expect(page.locator("[data-composer-citation-chip]")).toContainText("Check this claim");

  await page.getByRole("button", { name: "Send" }).click();
  const sentChip = page
    .locator('[data-role="user"] [data-assistant-citation-chip]')
    .filter({ hasText: "Check this claim" });
  await expect(sentChip).toBeVisible();
  await expect(sentChip).toHaveAccessibleName("Assistant quote: Check this claim");
  await expect(page.getByText("I received 1 citation:")).toBeVisible();

  // The provider saw the marker and the citation block, not the raw link.
  const turnId = await page
    .locator('[data-role="user"]')
    .filter({ has: page.locator("[data-assistant-citation-chip]") })
    .getAttribute("data-turn-id");
  expect(turnId).toBeTruthy();
  const providerInput = await request.get(
    `/api/threads/${threadId}/turns/${turnId}/provider-input`,
  );
  expect(providerInput.ok()).toBe(true);
  const body = JSON.stringify(await providerInput.json());
  expect(body).toContain("[assistant-quote-1]");
  expect(body).toContain("<assistant_citations>");

  // Following the chip reveals and highlights exactly the cited text.
  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  const sourceId = await answerBodies(page).first().getAttribute("data-assistant-citation-source");
  await sentChip.click();
  await expect(page).toHaveURL(/#assistant-citation=[A-Za-z0-9_-]+$/);
  await expect(row(page, sourceId!)).toHaveAttribute("data-citation-highlighted", "true");
  await expect.poll(() => highlightedText(page)).toEqual([paragraphText]);

  // Escape dismisses it; the same chip reveals it again.
  await page.keyboard.press("Escape");
  await expect
    .poll(() => page.evaluate(() => CSS.highlights.has("assistant-citation")))
    .toBe(false);
  await expect(row(page, sourceId!)).not.toHaveAttribute("data-citation-highlighted", "true");
  await sentChip.click();
  await expect.poll(() => page.evaluate(() => CSS.highlights.has("assistant-citation"))).toBe(true);
  await expect(row(page, sourceId!)).toHaveAttribute("data-citation-highlighted", "true");

  // The list settling back at its end on its own a moment after the click (CI: a reply's last
  // chunks) is not the reader going back to the latest: the citation and its highlight stay.
  await page.locator(".timeline__scroller").evaluate(
    (scroller) =>
      new Promise<void>((resolve) => {
        scroller.scrollTop = scroller.scrollHeight;
        // The scroll event is handled in the next frame.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
  await expect(page).toHaveURL(/#assistant-citation=[A-Za-z0-9_-]+$/);
  expect(await highlightedText(page)).toEqual([paragraphText]);
  await expect(row(page, sourceId!)).toHaveAttribute("data-citation-highlighted", "true");
});

test("a chip citing older history loads one window around it and highlights the source", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  await page.goto(rig.seededThreadPath);
  const newestTurn = rig.seededTurns;
  const citedTurn = newestTurn - 20;
  await expect(page.getByText(`Answer ${newestTurn} looks at`)).toBeVisible();
  const lead = `Answer ${citedTurn} looks at`;
  // The cited answer is not loaded yet (the chip itself shows the start of its quote).
  await expect(page.locator('[data-role="assistant"]').getByText(lead)).toHaveCount(0);

  let olderPages = 0;
  let windows = 0;
  page.on("request", (request) => {
    if (/\/messages\?(.*&)?before=/.test(request.url())) olderPages++;
    if (/\/messages\?(.*&)?around=/.test(request.url())) windows++;
  });
  const chip = page.getByRole("link", { name: `Assistant quote: Revisit turn ${citedTurn}` });
  await chip.click();
  await expect(page).toHaveURL(/#assistant-citation=/);
  const cited = page.locator('[data-role="assistant"]').filter({ hasText: lead }).first();
  await expect(cited).toHaveAttribute("data-citation-highlighted", "true");
  await expect
    .poll(() => highlightedText(page))
    .toEqual([expect.stringContaining(`Answer ${citedTurn} looks at`)]);
  await expect(cited.getByText(lead)).toBeInViewport();
  // One around= window, no paging through history.
  expect(windows).toBe(1);
  expect(olderPages).toBe(0);
});

test("a citation link in assistant output stays plain text, never a chip", async ({
  page,
  rig,
}) => {
  // Inject a citation link into an assistant answer as the server delivers it (model output
  // could contain one): it must render as text.
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: rig.environmentId,
    threadId: rig.seededThreadId,
    messageId: "forged",
    text: "forged quote",
    start: 0,
    end: 12,
    prefix: "",
    suffix: "",
    comment: "forged comment",
  });
  await page.route(/\/api\/threads\/[^/]+\/messages/, async (route) => {
    const response = await route.fetch();
    const page = (await response.json()) as {
      messages: { role: string; kind: string; text: string }[];
    };
    for (const message of page.messages) {
      if (message.role === "assistant" && message.kind === "answer") {
        message.text = `Model says ${link} here.\n\n${message.text}`;
      }
    }
    await route.fulfill({ response, json: page });
  });
  // The page would otherwise carry the newest page itself, untouched by the route above.
  await withoutFirstRows(page, rig.seededThreadPath);
  await page.goto(rig.seededThreadPath);
  const forged = page.getByText(`Model says ${link} here.`).first();
  await expect(forged).toBeVisible();
  await expect(page.locator('[data-role="assistant"] [data-assistant-citation-chip]')).toHaveCount(
    0,
  );
  // User prompts of the same page still render their real chips.
  await expect(
    page.locator('[data-role="user"] [data-assistant-citation-chip]').first(),
  ).toBeVisible();
});

test("a link opened directly warns about changed or missing sources and honours reduced motion", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Tell me about retries");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const messageId = await answerBodies(page).first().getAttribute("data-assistant-citation-source");
  const path = new URL(page.url()).pathname;
  const link = (citation: Partial<AssistantCitation>) =>
    `${path}${formatAssistantCitationHash(
      formatAssistantCitationHref({
        version: 1,
        environmentId: rig.environmentId,
        threadId,
        messageId: messageId!,
        text: "This reply is turn 1 of the thread.",
        start: 0,
        end: 35,
        prefix: "",
        suffix: "",
        ...citation,
      }),
    )}`;

  await page.goto(link({ text: "A sentence the reply never had." }));
  await expect(
    page.getByRole("status").filter({ hasText: "The cited text has changed." }),
  ).toBeVisible();
  expect(await page.evaluate(() => CSS.highlights.has("assistant-citation"))).toBe(false);

  await page.goto(link({ messageId: "no-such-message" }));
  await expect(
    page.getByRole("status").filter({ hasText: "The cited message is no longer in this thread." }),
  ).toBeVisible();

  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto(link({}));
  await expect(row(page, messageId!)).toHaveAttribute("data-citation-highlighted", "true");
  // Held without pulsing: full strength from the start.
  expect(
    await page.evaluate(() =>
      document.documentElement.style.getPropertyValue("--assistant-citation-opacity"),
    ),
  ).toBe("1.000");
  await expect.poll(() => highlightedText(page)).toEqual(["This reply is turn 1 of the thread."]);
});

/**
 * A new thread with one demo answer, and a citation link (with `comment`) to the words "so you
 * can try selecting" in that answer.
 */
async function answeredWithLink(page: Page, rig: RigState, prompt: string, comment: string) {
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, prompt);
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const sourceId = (await answerBodies(page)
    .first()
    .getAttribute("data-assistant-citation-source"))!;
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: rig.environmentId,
    threadId,
    messageId: sourceId,
    text: "so you can try selecting",
    start: 0,
    end: 24,
    prefix: "",
    suffix: "",
    comment,
  });
  return { threadId, sourceId, link };
}

test("a citation link inside a code span or after a backslash is a chip too, and opens its source", async ({
  page,
  rig,
}) => {
  const { threadId, sourceId, link } = await answeredWithLink(
    page,
    rig,
    "Give me something to cite",
    "In code",
  );
  // The composer shows chips for these (recognition is lexical), so the sent message must too.
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
    data: { input: `Look at \`${link}\` and \\${link}` },
  });
  expect(sent.ok()).toBe(true);
  const chips = page.locator('[data-role="user"] [data-assistant-citation-chip]');
  await expect(chips).toHaveCount(2);
  const inCode = page.locator('[data-role="user"] code [data-assistant-citation-chip]');
  await expect(inCode).toHaveAccessibleName("Assistant quote: In code");
  await expect(page.locator('[data-role="user"]').getByText("t3-citation:")).toHaveCount(0);
  // Clicked once the reply is complete: while it streams, the view follows it and moves the chip.
  await expect(page.locator('[data-role="assistant"][data-kind="answer"]')).toHaveCount(2);
  await expect(page.locator('[data-role="assistant"][data-status="streaming"]')).toHaveCount(0);

  await page.evaluate(() => window.getSelection()?.removeAllRanges());
  await inCode.click();
  await expect(row(page, sourceId)).toHaveAttribute("data-citation-highlighted", "true");
  await expect.poll(() => highlightedText(page)).toEqual(["so you can try selecting"]);
});

test("a chip clicked at the end while a reply streams shows its source; the reply does not pull the view back", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const events = await controlThreadEvents(page);
  const { threadId, sourceId, link } = await answeredWithLink(
    page,
    rig,
    "Something to cite first",
    "While it streams",
  );
  await events.hold(true);
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
    data: { input: `About ${link}` },
  });
  expect(sent.ok()).toBe(true);
  // The reply starts (its events are handed over one by one); most of it is still held.
  const chip = page.getByRole("link", { name: "Assistant quote: While it streams" });
  const streaming = page.locator('[data-role="assistant"][data-status="streaming"]');
  await events.releaseUntil(async () => (await chip.count()) + (await streaming.count())).toBe(2);
  await expect.poll(() => events.release(0)).toBeGreaterThanOrEqual(8);
  // The view is at the end, following the reply, when the chip is clicked.
  const fromEnd = () =>
    page
      .locator(".timeline__scroller")
      .evaluate((s) => s.scrollHeight - s.scrollTop - s.clientHeight);
  await expect.poll(fromEnd).toBeLessThanOrEqual(2);
  await chip.click();
  await expect(row(page, sourceId)).toHaveAttribute("data-citation-highlighted", "true");

  // The rest of the reply lands, a chunk every two frames: the source stays in view.
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  while ((await events.release(1)) > 0) await frames();
  await events.hold(false);
  await expect(page.locator('[data-role="assistant"][data-status="streaming"]')).toHaveCount(0);
  await expect(row(page, sourceId).locator("p").nth(1)).toBeInViewport();
  expect(await fromEnd()).toBeGreaterThan(2);
});
