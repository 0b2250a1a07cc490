/**
 * Jump to latest and where focus goes (issue 21 items 1, 3, 6 and 8): the round button shows
 * only while the reader is away from the end (also in a brand-new thread) and works there; it
 * leaves the `#assistant-citation=` location (a reload lands at the latest; Back still returns
 * to the chip); focus never drops to `<body>`; at 390×844 the jump pills are compact one-line
 * pills inside the viewport that cover no message text.
 *
 * Uses the seeded thread without adding turns to it (navigation.spec.ts adds some at its end).
 */
import type { Page } from "@playwright/test";
import {
  type AssistantCitation,
  collectAssistantCitations,
  formatAssistantCitationHash,
  formatAssistantCitationHref,
} from "../packages/citations/src/index.ts";
import {
  assistantBodies,
  composer,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  THREAD_PATH,
  test,
} from "./support/fixtures.ts";
import type { RigState } from "./support/rig.ts";

const lead = (turn: number) => `Answer ${turn} looks at`;
const jumpButton = (page: Page) => page.getByRole("button", { name: "Jump to latest" });
const backButton = (page: Page) => page.getByRole("button", { name: "Back to where you were" });
const deepChip = (page: Page, turn: number) =>
  page.getByRole("link", { name: `Assistant quote: Deep link to turn ${turn}`, exact: true });

/** The seeded thread's deep link citing `turn`. */
async function deepLink(page: Page, rig: RigState, turn: number): Promise<AssistantCitation> {
  const response = await page.request.get(`/api/threads/${rig.seededThreadId}/messages?limit=40`);
  const body = (await response.json()) as { messages: { kind: string; text: string }[] };
  for (const message of body.messages) {
    for (const found of collectAssistantCitations(message.text)) {
      if (found.citation.comment === `Deep link to turn ${turn}`) return found.citation;
    }
  }
  throw new Error(`no deep link to turn ${turn}`);
}

/** Distance (px) from the bottom of the timeline's view to the end of its content. */
function distanceFromEnd(page: Page): Promise<number> {
  return page
    .locator(".timeline__scroller")
    .evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
}

/** The id of the focused element's message row, "body" when focus is on <body>, else its tag. */
function focusedPlace(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) return "body";
    return active.getAttribute("data-message-id") ?? active.tagName.toLowerCase();
  });
}

async function openSeeded(page: Page, rig: RigState): Promise<void> {
  await page.goto(rig.seededThreadPath);
  await expect(page.getByText(lead(rig.seededTurns)).first()).toBeVisible();
}

test("a brand-new thread: Jump to latest shows only away from the end, and brings the newest message back with focus", async ({
  page,
}) => {
  await page.goto("/");
  await sendPrompt(page, "First question for the jump button");
  await expect(page).toHaveURL((url) => THREAD_PATH.test(url.pathname));
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await sendPrompt(page, "Second question for the jump button");
  await expect(assistantBodies(page)).toHaveCount(2);
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  // At the end: no button (DESIGN.md section 6: never shown at the end).
  await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(2);
  await expect(jumpButton(page)).toHaveCount(0);

  // The reader scrolls up with the wheel: the round button appears.
  const scroller = page.locator(".timeline__scroller");
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -600);
  await expect(jumpButton(page)).toBeVisible();
  const size = (await jumpButton(page).boundingBox())!;
  expect(Math.abs(size.width - size.height)).toBeLessThanOrEqual(1); // round

  await jumpButton(page).click();
  await expect.poll(() => distanceFromEnd(page)).toBeLessThanOrEqual(2);
  await expect(jumpButton(page)).toHaveCount(0);
  // Focus: the newest message (the button that had it is gone; never <body>).
  const newest = await page
    .locator("[data-timeline] [data-message-id]")
    .last()
    .getAttribute("data-message-id");
  await expect.poll(() => focusedPlace(page)).toBe(newest);
});

test("Jump to latest after a chip jump leaves the citation URL: reload lands at the latest, Back returns to the chip", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  await openSeeded(page, rig);
  const turn = rig.seededTurns - 300;
  await deepChip(page, turn).click();
  await expect(page).toHaveURL(/#assistant-citation=/);
  await expect(page.getByText(lead(turn)).first()).toBeVisible();
  await expect(jumpButton(page)).toBeVisible();

  await jumpButton(page).click();
  // The history entry is replaced without the hash.
  await expect(page).not.toHaveURL(/#assistant-citation=/);
  await expect(page.getByText(lead(rig.seededTurns)).first()).toBeInViewport();
  await expect.poll(() => focusedPlace(page)).not.toBe("body");

  // Back still returns to the clicked chip, focused.
  await page.goBack();
  await expect(deepChip(page, turn)).toBeFocused();
  // Forward: the replaced entry, without the hash; a reload there lands at the latest.
  await page.goForward();
  await expect(page).not.toHaveURL(/#assistant-citation=/);
  await page.reload();
  await expect(page.getByText(lead(rig.seededTurns)).first()).toBeInViewport();
  // No jump again: nothing highlighted, no detached window.
  expect(await page.evaluate(() => CSS.highlights.has("assistant-citation"))).toBe(false);
  await expect(page.locator('[data-citation-highlighted="true"]')).toHaveCount(0);
  await expect(jumpButton(page)).toHaveCount(0);
});

test("a 'changed' warning shows as a status while the source message takes focus; Dismiss leaves the citation URL and keeps focus off <body>", async ({
  page,
  rig,
}) => {
  const deep = await deepLink(page, rig, rig.seededTurns - 3);
  // The same message, quoting words it does not hold: the text "changed".
  const changed = { ...deep, text: "words this answer never said", prefix: "", suffix: "" };
  await page.goto(
    `${rig.seededThreadPath}${formatAssistantCitationHash(formatAssistantCitationHref(changed))}`,
  );
  // The composer mounts once the first rows are laid out; Dismiss hands focus to it.
  await expect(composer(page)).toBeVisible();
  const warning = page.locator("[data-citation-warning]");
  await expect(warning).toHaveAttribute("role", "status");
  // Why (issue 32): the jump still takes the reader to the message, marked; the status announces.
  const source = page.locator(`[data-message-id="${deep.messageId}"]`);
  await expect(source).toBeFocused();
  await expect(source).toHaveAttribute("data-citation-warned", "true");
  const dismiss = warning.getByRole("button", { name: "Dismiss" });
  await dismiss.focus();
  await expect(dismiss).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(warning).toHaveCount(0);
  await expect(page).not.toHaveURL(/#assistant-citation=/);
  // Why: the button that had focus is gone; focus goes to the composer, not <body>.
  await expect(composer(page)).toBeFocused();
});

test("phone 390×844: after a jump, Back to where you were and Jump to latest are one-line pills inside the view, over no message text", async ({
  browser,
  rig,
}) => {
  const context = await browser.newContext({
    baseURL: rig.baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    colorScheme: "dark",
  });
  const page = await context.newPage();
  try {
    await openSeeded(page, rig);
    const turn = rig.seededTurns - 50;
    const chip = deepChip(page, turn);
    await chip.scrollIntoViewIfNeeded();
    await chip.tap();
    await expect(page).toHaveURL(/#assistant-citation=/);
    await expect(backButton(page)).toBeVisible();
    await expect(jumpButton(page)).toBeVisible();
    const geometry = await page.evaluate(() => {
      const names = ["Back to where you were", "Jump to latest"];
      const buttons = [...document.querySelectorAll<HTMLElement>(".jump-controls button")];
      const pills = names.map((name) => {
        const button = buttons.find((b) =>
          (b.getAttribute("aria-label") ?? b.textContent ?? "").includes(name),
        )!;
        const rect = button.getBoundingClientRect();
        const style = getComputedStyle(button);
        return {
          name,
          left: rect.left,
          right: rect.right,
          top: rect.top,
          bottom: rect.bottom,
          height: rect.height,
          lineHeight: Number.parseFloat(style.fontSize) * 1.6,
          clipped: button.scrollWidth > button.clientWidth + 1,
        };
      });
      // Every line box of message text inside the timeline's visible box.
      const view = document.querySelector(".timeline__scroller")!.getBoundingClientRect();
      const lines: { left: number; right: number; top: number; bottom: number }[] = [];
      for (const body of document.querySelectorAll("[data-timeline] [data-message-id]")) {
        const range = document.createRange();
        range.selectNodeContents(body);
        for (const rect of range.getClientRects()) {
          const top = Math.max(rect.top, view.top);
          const bottom = Math.min(rect.bottom, view.bottom);
          if (rect.width > 0 && bottom > top) {
            lines.push({ left: rect.left, right: rect.right, top, bottom });
          }
        }
      }
      return { pills, lines, width: innerWidth, height: innerHeight };
    });
    for (const pill of geometry.pills) {
      // One line, not clipped, compact (a 44 px touch target at most: issue 32).
      expect(pill.height, pill.name).toBeLessThanOrEqual(Math.max(44, pill.lineHeight + 16));
      expect(pill.clipped, pill.name).toBe(false);
      // Safe margins: at least 8 px from each screen edge.
      expect(pill.left, pill.name).toBeGreaterThanOrEqual(8);
      expect(geometry.width - pill.right, pill.name).toBeGreaterThanOrEqual(8);
      expect(pill.top, pill.name).toBeGreaterThanOrEqual(8);
      expect(geometry.height - pill.bottom, pill.name).toBeGreaterThanOrEqual(8);
      // Over no message text.
      const covered = geometry.lines.filter(
        (line) =>
          line.left < pill.right &&
          line.right > pill.left &&
          line.top < pill.bottom &&
          line.bottom > pill.top,
      );
      expect(covered, pill.name).toEqual([]);
    }
  } finally {
    await context.close();
  }
});
