/**
 * The first minute on a phone (390×844, touch; issue 32): New thread shows the home composer,
 * focused, with a way back to the list; send a prompt and read the streamed reply; cite by touch;
 * find (the sheet shows the whole query); open the backlinks list. Every screen has one `main`
 * landmark and one level-one heading, and every control shown outside message text is at least
 * 44×44 px.
 */
import type { Page } from "@playwright/test";
import { composer, DEMO_ANSWER_END, expect, test } from "./support/fixtures.ts";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

async function expectOneMainAndHeading(page: Page): Promise<void> {
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
}

/** Buttons and links shown outside message text that are smaller than 44×44 px. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const small: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      'button, a[href], input, [role="button"]',
    )) {
      // Links inside message text (chips) are inline text, as WCAG 2.5.8 allows.
      if (element.closest("[data-message-id] .message__body, .thread-list")) continue;
      if (element.classList.contains("skip-link")) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.bottom < 0 || rect.top > window.innerHeight) continue;
      if (getComputedStyle(element).visibility === "hidden") continue;
      if (rect.width < 44 || rect.height < 44) {
        const name = element.getAttribute("aria-label") ?? element.textContent?.trim() ?? "";
        small.push(
          `${element.tagName} "${name.slice(0, 30)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        );
      }
    }
    return small;
  });
}

test("the first minute on a phone: new thread, streamed reply, cite by touch, find, backlinks", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/");
  // The list first, with its landmark and heading.
  await expect(page.getByRole("navigation", { name: "Threads" })).toBeVisible();
  await expectOneMainAndHeading(page);
  expect(await smallTargets(page)).toEqual([]);

  // New thread: the home composer, focused, and a way back to the list.
  await page.getByRole("button", { name: "New thread", exact: true }).tap();
  await expect(composer(page)).toBeVisible();
  await expect(composer(page)).toBeFocused();
  await expectOneMainAndHeading(page);
  const back = page.getByRole("button", { name: "← Threads" });
  await back.tap();
  await expect(page.getByRole("navigation", { name: "Threads" })).toBeVisible();
  await expect(composer(page)).toBeHidden();
  await page.getByRole("button", { name: "New thread", exact: true }).tap();
  await expect(composer(page)).toBeFocused();
  expect(await smallTargets(page)).toEqual([]);

  // Start the thread and read the streamed reply.
  await page.keyboard.insertText("Hello from a phone, tell me something");
  await page.getByRole("button", { name: "Send" }).tap();
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(DEMO_ANSWER_END).first()).toBeInViewport();
  await expectOneMainAndHeading(page);

  // Cite by touch: a long press selects a paragraph; the toolbar's button is tapped.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const body = document.querySelector("[data-assistant-citation-source]")!;
    const paragraph = [...body.querySelectorAll("p")].find((p) =>
      (p.textContent ?? "").startsWith("To repeat:"),
    )!;
    window.getSelection()!.selectAllChildren(paragraph);
  });
  await page.getByRole("button", { name: "Cite in composer" }).tap();
  await expect(page.locator("[data-composer-citation-chip]")).toHaveCount(1);
  await composer(page).tap();
  await page.keyboard.insertText(" Why?");
  await page.getByRole("button", { name: "Send" }).tap();
  await expect(page.locator("a[data-assistant-citation-chip]")).toHaveCount(1, { timeout: 30_000 });
  await expect(
    page.locator('[data-role="assistant"][data-kind="answer"][data-status="complete"]'),
  ).toHaveCount(2, { timeout: 30_000 });
  expect(await smallTargets(page)).toEqual([]);

  // Find: the sheet shows the whole query.
  await page.getByRole("button", { name: "Search this thread" }).tap();
  const find = page.getByRole("textbox", { name: "Find in thread" });
  await expect(find).toBeFocused();
  const query = "The demo provider has read your message";
  await page.keyboard.insertText(query);
  await expect(find).toHaveValue(query);
  const fits = await find.evaluate(
    (input: HTMLInputElement) => input.scrollWidth <= input.clientWidth,
  );
  expect(fits).toBe(true);
  expect(await smallTargets(page)).toEqual([]);
  await page.keyboard.press("Escape");

  // The backlinks list of the cited answer.
  const cited = page.getByRole("button", { name: "Cited in 1 message", exact: true });
  await cited.scrollIntoViewIfNeeded();
  await cited.tap();
  const dialog = page.getByRole("dialog", { name: "Cited in 1 message" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeInViewport();
  // Its Close is one of the app's buttons (rounded, a pointer), and large enough to tap.
  const close = dialog.getByRole("button", { name: "Close" });
  const style = await close.evaluate((element) => {
    const computed = getComputedStyle(element);
    return { radius: computed.borderRadius, cursor: computed.cursor };
  });
  expect(style).toEqual({ radius: "8px", cursor: "pointer" });
  expect(await smallTargets(page)).toEqual([]);
  await close.tap();
  await expect(dialog).toBeHidden();
});
