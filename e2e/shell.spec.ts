/**
 * The app shell on a wide screen (issue 32): one `main` landmark and one level-one heading on
 * every screen; **Skip to composer** is the first Tab stop and focuses the composer; the home
 * page opens with its composer focused; a thread that does not exist gets a plain not-found view
 * (no Retry, the composer disabled).
 */
import type { Page } from "@playwright/test";
import { composer, createThreadFromUi, expect, test } from "./support/fixtures.ts";

async function expectOneMainAndHeading(page: Page): Promise<void> {
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
}

test("home: its composer is focused on load; Skip to composer is the first Tab stop", async ({
  page,
}) => {
  await page.goto("/");
  await expect(composer(page)).toBeFocused();
  await expectOneMainAndHeading(page);
  // The first focusable element of the page, in the order Tab walks it.
  const first = await page.evaluate(() => {
    const focusable = document.querySelectorAll<HTMLElement>(
      'a[href], button, input, textarea, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]',
    );
    return focusable[0]?.textContent ?? null;
  });
  expect(first).toBe("Skip to composer");
});

test("thread: Tab first reaches Skip to composer, which focuses the composer", async ({ page }) => {
  await createThreadFromUi(page);
  await expectOneMainAndHeading(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to composer" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  const url = page.url();
  await page.keyboard.press("Enter");
  await expect(composer(page)).toBeFocused();
  // The URL hash belongs to citation navigation: the skip link leaves it alone.
  expect(page.url()).toBe(url);
});

test("a thread that does not exist shows a plain not-found view: no Retry, composer disabled", async ({
  page,
  rig,
}) => {
  await page.goto(`/${rig.environmentId}/no-such-thread`);
  await expect(page.getByText("This thread does not exist.").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thread not found");
  await expect(page.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(composer(page)).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send" })).toHaveCount(0);
  await expectOneMainAndHeading(page);
  await page.getByRole("link", { name: "Back to your threads" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
});
