/**
 * Jumps to any depth on the seeded 2,000-turn thread (issue 11). The seed's last prompt cites
 * answers 1, 3, 50, 300 and 1,900 turns back ("Deep link to turn N"). Each jump is checked where
 * the reader looks: the cited words are highlighted inside the timeline's visible box, after one
 * `around=` request at most and no paging through history. Also: a missing message warns (and a
 * found one never does), a failed request offers Retry, cross-thread and cross-environment chips,
 * Back to the chip (button, browser Back, then Forward), Jump to latest, and a reply that streams
 * in while a detached window is shown.
 *
 * The last test adds turns to the seeded thread, so it stays last.
 */
import type { Page } from "@playwright/test";
import {
  type AssistantCitation,
  collectAssistantCitations,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
  serializeAssistantCitation,
} from "../packages/citations/src/index.ts";
import {
  composer,
  controlThreadEvents,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  row,
  sendPrompt,
  test,
  turnEnded,
} from "./support/fixtures.ts";
import type { RigState } from "./support/rig.ts";

const lead = (turn: number) => `Answer ${turn} looks at`;

/** The deep links of the seeded thread's last prompt, by cited turn. */
async function deepLinks(page: Page, rig: RigState): Promise<Map<number, AssistantCitation>> {
  const response = await page.request.get(`/api/threads/${rig.seededThreadId}/messages?limit=40`);
  const body = (await response.json()) as { messages: { kind: string; text: string }[] };
  const links = new Map<number, AssistantCitation>();
  for (const message of body.messages) {
    if (message.kind !== "prompt") continue;
    for (const found of collectAssistantCitations(message.text)) {
      const match = /^Deep link to turn (\d+)$/.exec(found.citation.comment ?? "");
      if (match) links.set(Number(match[1]), found.citation);
    }
  }
  return links;
}

/** Counts `around=` and `before=` history requests from now on. */
function countHistoryRequests(page: Page) {
  const counts = { around: 0, before: 0 };
  page.on("request", (request) => {
    const url = request.url();
    if (!/\/messages\?/.test(url)) return;
    if (/[?&]around=/.test(url)) counts.around++;
    if (/[?&]before=/.test(url)) counts.before++;
  });
  return counts;
}

/**
 * Records every text shown in a `role="status"` notice from now on, so a test can check that a
 * warning never flashed by (not just that none is left at the end).
 */
async function recordStatusTexts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __statusTexts: string[] };
    w.__statusTexts = [];
    const observer = new MutationObserver(() => {
      for (const element of document.querySelectorAll('[role="status"]')) {
        const text = element.textContent ?? "";
        if (text && !w.__statusTexts.includes(text)) w.__statusTexts.push(text);
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __statusTexts: string[] }).__statusTexts);
}

/**
 * The `assistant-citation` highlight's text when all of it lies inside the timeline scroller's
 * visible box (and the window), else null.
 */
function highlightedInView(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const highlight = CSS.highlights.get("assistant-citation");
    const range = highlight ? [...highlight][0] : undefined;
    if (!(range instanceof Range)) return null;
    const scroller = document.querySelector(".timeline__scroller");
    if (!scroller) return null;
    const rect = range.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const inside =
      rect.height > 0 &&
      rect.top >= box.top &&
      rect.bottom <= box.bottom &&
      rect.top >= 0 &&
      rect.bottom <= window.innerHeight;
    return inside ? range.toString() : null;
  });
}

async function expectHighlightedInView(page: Page, turn: number): Promise<void> {
  await expect.poll(() => highlightedInView(page), { timeout: 15_000 }).toContain(lead(turn));
  await expect(
    page.locator('[data-citation-highlighted="true"]').filter({ hasText: lead(turn) }),
  ).toHaveCount(1);
}

const deepChip = (page: Page, turn: number) =>
  page.getByRole("link", { name: `Assistant quote: Deep link to turn ${turn}`, exact: true });

async function openSeeded(page: Page, rig: RigState): Promise<void> {
  await page.goto(rig.seededThreadPath);
  await expect(page.getByText(lead(rig.seededTurns)).first()).toBeVisible();
}

for (const back of [3, 300, 1900]) {
  test(`a chip citing ${back} turns back highlights its source in view with at most one request`, async ({
    page,
    rig,
  }) => {
    test.setTimeout(60_000);
    await openSeeded(page, rig);
    const turn = rig.seededTurns - back;
    const counts = countHistoryRequests(page);
    const statusTexts = await recordStatusTexts(page);
    await deepChip(page, turn).click();
    await expect(page).toHaveURL(/#assistant-citation=/);
    await expectHighlightedInView(page, turn);
    // Loaded or not, no paging through history: one around= window at most.
    expect(counts.around).toBeLessThanOrEqual(1);
    if (back > 10) expect(counts.around).toBe(1);
    expect(counts.before).toBe(0);
    // A found source never shows a warning, not even for a moment.
    const texts = await statusTexts();
    expect(texts.filter((text) => /cited|history|could not/i.test(text))).toEqual([]);
    // Focus moved to the source message, an article labelled by its speaker.
    const focused = page.locator("article:focus");
    await expect(focused).toHaveAccessibleName(/^Assistant/);
    await expect(focused).toContainText(lead(turn));
    await expect(page.locator("[data-citation-announcement]")).toHaveText(
      "Showing the cited text.",
    );
    // role=status is for warnings (DESIGN.md section 6): a found source leaves none.
    await expect(page.getByRole("status")).toHaveCount(0);
  });
}

test("a deep jump to a progress update unfolds its folded turn and highlights it", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  // Turn 101's progress updates are folded; find the first one next to answer 100.
  const links = await deepLinks(page, rig);
  const answer = links.get(rig.seededTurns - 1900)!;
  const res = await page.request.get(
    `/api/threads/${rig.seededThreadId}/messages?around=${answer.messageId}&limit=9`,
  );
  const { messages } = (await res.json()) as {
    messages: { id: string; kind: string; text: string }[];
  };
  const progress = messages.find((m) => m.kind === "progress" && m.text.includes("turn 101:"))!;
  const text = "reading the question";
  await page.goto(
    `${rig.seededThreadPath}${formatAssistantCitationHash(
      formatAssistantCitationHref({
        ...answer,
        messageId: progress.id,
        text,
        start: 0,
        end: text.length,
        comment: "A progress update",
      }),
    )}`,
  );
  await expect.poll(() => highlightedInView(page), { timeout: 15_000 }).toBe(text);
  await expect(row(page, progress.id)).toHaveAttribute("data-citation-highlighted", "true");
  await expect(
    page.locator(`[data-row-kind="fold"] button[aria-expanded="true"]`).first(),
  ).toBeVisible();
});

test("message articles are labelled by speaker", async ({ page, rig }) => {
  await openSeeded(page, rig);
  await expect(page.getByRole("article", { name: /^You/ }).first()).toBeVisible();
  await expect(page.getByRole("article", { name: /^Assistant/ }).first()).toBeVisible();
});

test("a missing message warns that it is gone; a failed request offers Retry", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const links = await deepLinks(page, rig);
  const deep = links.get(rig.seededTurns - 1900)!;
  const path = rig.seededThreadPath;
  const link = (citation: AssistantCitation) =>
    `${path}${formatAssistantCitationHash(formatAssistantCitationHref(citation))}`;

  await page.goto(link({ ...deep, messageId: "no-such-message" }));
  await expect(
    page.getByRole("status").filter({ hasText: "The cited message is no longer in this thread." }),
  ).toBeVisible();

  // The around= request fails (the network drops it): not "gone", but "could not be loaded".
  await page.route(/[?&]around=/, (route) => route.abort("connectionfailed"));
  await page.goto(link(deep));
  const failed = page
    .getByRole("status")
    .filter({ hasText: "The messages around the cited text could not be loaded." });
  await expect(failed).toBeVisible();
  await expect(page.getByText("no longer in this thread")).toHaveCount(0);
  await page.unroute(/[?&]around=/);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expectHighlightedInView(page, rig.seededTurns - 1900);
  await expect(failed).toHaveCount(0);
});

/** The citation of the seeded thread's answer 300 turns back, cited from a new thread. */
async function answerCitedFromNewThread(page: Page, rig: RigState): Promise<AssistantCitation> {
  const links = await deepLinks(page, rig);
  return links.get(rig.seededTurns - 300)!;
}

test("a chip citing another thread opens it and highlights; one citing another environment only says so", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const deep = await answerCitedFromNewThread(page, rig);
  const threadId = await createThreadFromUi(page);
  const elsewhere = serializeAssistantCitation({ ...deep, comment: "From the long thread" });
  const foreign = serializeAssistantCitation({
    ...deep,
    environmentId: "some-other-environment",
    comment: "From another machine",
  });
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
    data: { input: `Compare ${elsewhere} and ${foreign}` },
  });
  expect(sent.ok()).toBe(true);
  await page.reload();

  const otherEnv = page.getByRole("link", {
    name: "Assistant quote from another environment: From another machine",
    exact: true,
  });
  await expect(otherEnv).toBeVisible();
  const url = page.url();
  await otherEnv.click();
  const notice = page.getByRole("status").filter({ hasText: "another environment" });
  await expect(notice).toBeVisible();
  expect(page.url()).toBe(url);
  await notice.getByRole("button", { name: "Dismiss" }).click();

  const otherThread = page.getByRole("link", {
    name: "Assistant quote from another thread: From the long thread",
    exact: true,
  });
  await expect(otherThread).toHaveAttribute("data-citation-scope", "other-thread");
  await otherThread.click();
  await expect(page).toHaveURL(new RegExp(`/${rig.seededThreadId}#assistant-citation=`));
  await expectHighlightedInView(page, rig.seededTurns - 300);

  // Back returns to the chip in the first thread.
  await page.getByRole("button", { name: "Back to where you were" }).click();
  await expect(page).toHaveURL(new RegExp(`/${threadId}$`));
  await expect(otherThread).toBeInViewport();
  await expect(otherThread).toBeFocused();
});

test("a chip pressed while the reply under it streams stays put and opens its source", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const deep = await answerCitedFromNewThread(page, rig);
  // History reads: a page read while the events are held would show the reply as stored so far,
  // past the held events (CI: a brand-new thread read `around=` its first message and the view
  // jumped to the nearly whole reply, the chip 229 px above the view).
  const historyReads: string[] = [];
  page.on("request", (request) => {
    if (/\/messages\?/.test(request.url())) historyReads.push(request.url());
  });
  const events = await controlThreadEvents(page);
  const threadId = await createThreadFromUi(page);
  const readsOfThread = () => historyReads.filter((url) => url.includes(`/threads/${threadId}/`));
  const readsAtLoad = readsOfThread().length;
  await events.hold(true);
  const elsewhere = serializeAssistantCitation({ ...deep, comment: "From the long thread" });
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
    data: { input: `Three points first:\n\n- one\n- two\n- three\n\nThen compare ${elsewhere}` },
  });
  expect(sent.ok()).toBe(true);
  const chip = page.getByRole("link", {
    name: "Assistant quote from another thread: From the long thread",
    exact: true,
  });
  const scroller = page.locator(".timeline__scroller");
  const scrollTop = () => scroller.evaluate((element) => element.scrollTop);
  const contentHeight = () => scroller.evaluate((element) => element.scrollHeight);
  // The reply streams in until the view, following it, has scrolled (the chip still shown).
  await events.releaseUntil(() => scrollTop()).toBeGreaterThan(0);
  // The reply grew by the released events alone: a brand-new thread has no history to read.
  expect(readsOfThread().slice(readsAtLoad)).toEqual([]);
  // Inside the timeline's box (not under the thread header): the press is in the timeline.
  const view = (await scroller.boundingBox())!;
  const box = (await chip.boundingBox())!;
  expect(box.y).toBeGreaterThan(view.y);
  expect(box.y + box.height).toBeLessThan(view.y + view.height);
  // Pressed right after a chunk moved the view to the end; more chunks land while it is held.
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  const pressedHeight = await contentHeight();
  await events.releaseUntil(() => contentHeight()).toBeGreaterThan(pressedHeight);
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
  // Nothing moved under the pointer, so the release lands on the chip and the click opens it.
  expect((await chip.boundingBox())!.y).toBe(box.y);
  await page.mouse.up();
  await expect(page).toHaveURL(new RegExp(`/${rig.seededThreadId}#assistant-citation=`));
  await expectHighlightedInView(page, rig.seededTurns - 300);
  await events.hold(false);
  await events.release(10_000);
});

test("Back returns to the clicked chip; Forward reveals the source again", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  await openSeeded(page, rig);
  const turn = rig.seededTurns - 1900;
  const chip = deepChip(page, turn);
  await chip.scrollIntoViewIfNeeded();
  const chipRow = page.locator("[data-message-id]").filter({ has: chip });
  const rowId = await chipRow.getAttribute("data-message-id");
  await chip.click();
  await expectHighlightedInView(page, turn);
  await expect(row(page, rowId!)).toHaveCount(0);

  await page.getByRole("button", { name: "Back to where you were" }).click();
  await expect(page).not.toHaveURL(/#assistant-citation=/);
  await expect(chip).toBeInViewport();
  await expect(chip).toBeFocused();
  await expect(page.getByRole("button", { name: "Back to where you were" })).toHaveCount(0);

  await page.goForward();
  await expect(page).toHaveURL(/#assistant-citation=/);
  await expectHighlightedInView(page, turn);

  // The browser's own Back does the same as the button.
  await page.goBack();
  await expect(chip).toBeInViewport();
});

test("hovering a chip whose source is on screen marks the source faintly", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  const threadId = await createThreadFromUi(page);
  await sendPrompt(page, "Tell me about hover marks");
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
  const answerId = await page
    .locator('[data-role="assistant"][data-kind="answer"]')
    .first()
    .getAttribute("data-message-id");
  // The answer's last sentence sits right above the next prompt, which cites it.
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: rig.environmentId,
    threadId,
    messageId: answerId!,
    text: DEMO_ANSWER_END,
    start: 0,
    end: DEMO_ANSWER_END.length,
    prefix: "",
    suffix: "",
    comment: "That last line",
  });
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, {
    data: { input: `About ${link}` },
  });
  expect(sent.ok()).toBe(true);
  const chip = page.getByRole("link", { name: "Assistant quote: That last line", exact: true });
  // Once the second reply is complete, the reader scrolls the chip (and the line above it) back
  // into view. With the wheel first: a script's small move up is not taken for leaving the end
  // while the layout still settles (useFollowPolicy.ts), and the view followed the end again
  // (seen once in a full run on a busy machine).
  await expect(page.getByText("I received 1 citation:")).toBeVisible();
  const box = (await page.locator(".timeline__scroller").boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -120);
  await expect(page.locator("[data-timeline][data-following-held]")).toHaveCount(1);
  // Again if the list's own scroll to the end, still in flight from the reply's last growth,
  // took the view back (a wheel does not cancel it: see the timeline README).
  await expect(async () => {
    await chip.scrollIntoViewIfNeeded();
    await expect(chip).toBeInViewport({ timeout: 1_000 });
  }).toPass();
  await expect(
    page.locator(`[data-message-id="${answerId}"]`).getByText(DEMO_ANSWER_END),
  ).toBeInViewport();
  await chip.hover();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const mark = CSS.highlights.get("assistant-citation-hover");
        return mark ? [...mark].map((range) => (range as Range).toString()) : [];
      }),
    )
    .toEqual([DEMO_ANSWER_END]);
  await page.mouse.move(0, 0);
  await expect
    .poll(() => page.evaluate(() => CSS.highlights.has("assistant-citation-hover")))
    .toBe(false);
});

test("Jump to latest after a deep jump, with a reply that streamed in meanwhile", async ({
  page,
  rig,
}) => {
  test.setTimeout(120_000);
  await openSeeded(page, rig);
  const turn = rig.seededTurns - 1900;
  await deepChip(page, turn).click();
  await expectHighlightedInView(page, turn);
  const jump = page.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toBeVisible();

  // Another client sends a turn while the detached window is shown; its reply streams in.
  const sent = await page.request.post(`/api/threads/${rig.seededThreadId}/turns`, {
    data: { input: "Streamed while you were away" },
  });
  expect(sent.ok()).toBe(true);
  const { turn: sentTurn } = (await sent.json()) as { turn: { id: string } };
  await turnEnded(page, rig.seededThreadId);
  // Still reading the old window.
  await expect(page.getByText(lead(turn)).first()).toBeVisible();

  await jump.click();
  const reply = page.locator(`[data-role="assistant"][data-turn-id="${sentTurn.id}"]`).last();
  await expect(reply).toBeInViewport();
  await expect(reply).toContainText("I received no citations with this message.");
  await expect(jump).toHaveCount(0);

  // Sending from the composer always shows the newest messages too.
  await page.goto(
    `${rig.seededThreadPath}${formatAssistantCitationHash(
      formatAssistantCitationHref((await deepLinks(page, rig)).get(turn)!),
    )}`,
  );
  await expectHighlightedInView(page, turn);
  await expect(jump).toBeVisible();
  const box = composer(page);
  await box.click();
  await page.keyboard.insertText("Back to the present");
  await box.press("Enter");
  await expect(
    page.locator('[data-role="user"]').filter({ hasText: "Back to the present" }),
  ).toBeInViewport();
  await expect(jump).toHaveCount(0);
});
