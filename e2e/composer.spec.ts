/**
 * Composer chips and drafts in the real browser: mention and skill chips from typing and from
 * the `@` typeahead survive a reload (draft persistence) and a copy/paste round trip, a stash
 * restores them, and an over-limit draft is blocked with the excess stated and stays editable.
 */
import type { Page } from "@playwright/test";
import { composer, createThreadFromUi, expect, test } from "./support/fixtures.ts";

const mentionChips = (page: Page) => page.locator("[data-composer-mention-chip]");
const skillChips = (page: Page) => page.locator("[data-composer-skill-chip]");

/** The saved draft of a thread (localStorage, written after a short debounce). */
function savedDraft(page: Page, threadId: string): Promise<string | null> {
  return page.evaluate((id) => localStorage.getItem(`composer:draft:v1:${id}`), threadId);
}

test("typed and picked chips survive a reload", async ({ page }) => {
  const threadId = await createThreadFromUi(page);
  const box = composer(page);
  await box.click();
  // A typed mention becomes a chip once a space ends it; `$name ` becomes a skill chip.
  await box.pressSequentially("Check @src/server/routes.ts ");
  await box.press("Escape"); // close the typeahead if it is still open
  await box.pressSequentially("with $review and ");
  // Typeahead: `@Time` lists workspace files; picking one inserts a mention chip.
  await box.pressSequentially("@Time");
  const listbox = page.getByRole("listbox", { name: "Files" });
  await listbox.getByRole("option", { name: "src/components/Timeline.tsx" }).click();

  await expect(mentionChips(page)).toHaveCount(2);
  await expect(page.locator('[data-composer-mention-chip="src/server/routes.ts"]')).toBeVisible();
  await expect(
    page.locator('[data-composer-mention-chip="src/components/Timeline.tsx"]'),
  ).toBeVisible();
  await expect(page.locator('[data-composer-skill-chip="review"]')).toBeVisible();

  await expect.poll(() => savedDraft(page, threadId)).toContain("@src/components/Timeline.tsx");
  await page.reload();
  await expect(box).toContainText("Check");
  await expect(mentionChips(page)).toHaveCount(2);
  await expect(page.locator('[data-composer-mention-chip="src/server/routes.ts"]')).toBeVisible();
  await expect(
    page.locator('[data-composer-mention-chip="src/components/Timeline.tsx"]'),
  ).toBeVisible();
  await expect(page.locator('[data-composer-skill-chip="review"]')).toBeVisible();
});

test("copy and paste of the whole draft rebuilds its chips", async ({ page }) => {
  await createThreadFromUi(page);
  const box = composer(page);
  await box.click();
  await box.pressSequentially("Read @README.md then run $plan now");
  await expect(page.locator('[data-composer-mention-chip="README.md"]')).toBeVisible();
  await expect(page.locator('[data-composer-skill-chip="plan"]')).toBeVisible();

  await box.press("ControlOrMeta+a");
  await box.press("ControlOrMeta+c");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe("Read @README.md then run $plan now");

  await box.press("Backspace");
  await expect(box).toHaveText("");
  await expect(mentionChips(page)).toHaveCount(0);
  await expect(skillChips(page)).toHaveCount(0);

  await box.press("ControlOrMeta+v");
  await expect(page.locator('[data-composer-mention-chip="README.md"]')).toBeVisible();
  await expect(page.locator('[data-composer-skill-chip="plan"]')).toBeVisible();
  await expect(box).toContainText("then run");
});

test("a stashed draft restores with its chips", async ({ page }) => {
  await createThreadFromUi(page);
  const box = composer(page);
  await box.click();
  await box.pressSequentially("Later: compare @docs/guide.md using $review today");
  await expect(page.locator('[data-composer-mention-chip="docs/guide.md"]')).toBeVisible();

  await page.getByRole("button", { name: "Stash draft" }).click();
  await expect(box).toHaveText("");
  await expect(mentionChips(page)).toHaveCount(0);

  // The stash list is collapsed behind its summary.
  await page.getByText(/Stashed drafts \(1\)/).click();
  await expect(page.getByRole("list", { name: "Stashed drafts" })).toContainText("Later: compare");
  await page.getByRole("button", { name: "Restore" }).click();
  await expect(page.locator('[data-composer-mention-chip="docs/guide.md"]')).toBeVisible();
  await expect(page.locator('[data-composer-skill-chip="review"]')).toBeVisible();
  await expect(box).toContainText("Later: compare");
});

test("an over-limit draft is blocked, says by how much, and stays editable", async ({ page }) => {
  const threadId = await createThreadFromUi(page);
  const box = composer(page);
  await box.click();
  const body = "lorem ipsum ".repeat(10_001); // 120,012 characters
  await page.evaluate((text) => navigator.clipboard.writeText(text), body);
  await box.press("ControlOrMeta+v");
  await expect.poll(() => box.evaluate((el) => (el.textContent ?? "").length)).toBe(body.length);

  // Sending trims first: 120,011 characters, 11 over.
  await box.press("Enter");
  const notice = page.getByRole("alert");
  await expect(notice).toHaveText(
    "This message is 11 characters over the 120,000-character limit.",
  );
  await expect(box).toBeEditable();
  expect(await box.evaluate((el) => (el.textContent ?? "").length)).toBe(body.length);

  // Still editable: type more, and the new excess is reported on the next send.
  await box.press("ControlOrMeta+End");
  await box.pressSequentially("zz");
  await box.press("Enter");
  await expect(notice).toHaveText(
    "This message is 14 characters over the 120,000-character limit.",
  );
  // Nothing was sent.
  const messages = await page.request.get(`/api/threads/${threadId}/messages?limit=5`);
  expect((await messages.json()).messages).toEqual([]);
});
