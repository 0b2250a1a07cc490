/**
 * Issue 21, item 5: readable in both colour schemes. axe-core finds no serious or critical
 * problem in a thread holding highlighted code, a table, a sent chip, the selection toolbar and
 * the comment editor, in light and dark; and every highlighted code token reaches 4.5:1 on its
 * block's background (measured here directly, from the computed colours).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

/** Serious or critical axe-core findings on the page as it is now (WCAG 2 A/AA rules). */
async function seriousFindings(page: Page, state: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${state}: ${violation.id} (${violation.impact}) at ${node.target.join(" ")}`,
      ),
    );
}

/** Contrast of every highlighted token below 4.5:1 against its code block's background. */
function lowContrastTokens(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (css: string) => {
      const [r, g, b] = rgb(css).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const low: string[] = [];
    for (const token of document.querySelectorAll<HTMLElement>(".code-block [class^='hljs-']")) {
      const block = token.closest<HTMLElement>(".code-block")!;
      const fg = luminance(getComputedStyle(token).color);
      const bg = luminance(getComputedStyle(block).backgroundColor);
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      if (ratio < 4.5) low.push(`${token.className} "${token.textContent}" ${ratio.toFixed(2)}:1`);
    }
    return low;
  });
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    test(`no serious axe-core findings; every code token at 4.5:1 (${colorScheme})`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      await createThreadFromUi(page);
      await sendPrompt(page, "Code and a table for the contrast check");
      await expect(page.getByText(DEMO_ANSWER_END).first()).toBeVisible();
      // The highlighter arrives in idle time.
      await expect(page.locator(".code-block [class^='hljs-']").first()).toBeAttached();
      await expect(page.locator(".chat-markdown table").first()).toBeVisible();
      expect(await lowContrastTokens(page)).toEqual([]);

      // A sent chip.
      const paragraph = page
        .locator("[data-assistant-citation-source] p")
        .filter({ hasText: "To repeat:" })
        .first();
      await paragraph.click({ clickCount: 3 });
      await page.getByRole("button", { name: "Cite in composer" }).click();
      const comment = page.getByRole("textbox", { name: "Comment on quote" });
      await comment.fill("Why this?");
      await comment.press("Enter");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page.locator('[data-role="user"] [data-assistant-citation-chip]')).toBeVisible();
      await expect(
        page.locator('[data-role="assistant"][data-kind="answer"][data-status="complete"]'),
      ).toHaveCount(2);

      // The toolbar over a new selection, then the comment editor it opens.
      const findings: string[] = [];
      await page
        .locator("[data-assistant-citation-source] p")
        .filter({ hasText: "This reply is turn" })
        .last()
        .click({ clickCount: 3 });
      await expect(page.getByRole("button", { name: "Cite in composer" })).toBeVisible();
      findings.push(...(await seriousFindings(page, "toolbar")));
      await page.getByRole("button", { name: "Cite in composer" }).click();
      await expect(comment).toBeFocused();
      findings.push(...(await seriousFindings(page, "comment editor")));
      expect(findings).toEqual([]);
    });
  });
}
