/**
 * Every thread within reach (issue 31): the windowed sidebar scrolled through 1,200 threads to
 * the oldest, Rename thread (F2) kept across a reload, Delete thread with Undo (and a chip citing
 * a deleted thread saying so), Search all threads (Ctrl+K) landing on a phrase 1,900 turns deep
 * in the seeded thread, highlighted in view after one `around=` request, Cite from a result
 * (sent, then its chip clicked), Export as Markdown (export.md, on a desktop and a phone), and axe
 * in light and dark on the dialog and the thread menu.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { openStore } from "../apps/server/src/storage/openStore.ts";
import { startServerProcess } from "../apps/server/src/testing/serverProcess.ts";
import {
  createAssistantCitationSelector,
  serializeAssistantCitation,
} from "../packages/citations/src/index.ts";
import { renderedTextOfMarkdown } from "../packages/markdown/src/index.ts";
import { composer, DEMO_ANSWER_END, expect, test } from "./support/fixtures.ts";
import { REPO_ROOT } from "./support/rig.ts";

const searchBox = (page: Page) =>
  page.getByRole("dialog", { name: "Search all threads" }).getByRole("textbox", {
    name: "Search all threads",
  });

/** The current find match's text when all of it is inside the timeline's visible box. */
function currentInView(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const highlight = CSS.highlights.get("thread-find-current");
    const range = highlight ? [...highlight][0] : undefined;
    if (!(range instanceof Range)) return null;
    const scroller = document.querySelector(".timeline__scroller");
    if (!scroller) return null;
    const rect = range.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    const inside = rect.height > 0 && rect.top >= box.top && rect.bottom <= box.bottom;
    return inside ? range.toString() : null;
  });
}

/** Counts `around=` history requests from now on. */
function countAround(page: Page): { around: number } {
  const counts = { around: 0 };
  page.on("request", (request) => {
    if (/\/messages\?.*around=/.test(request.url())) counts.around++;
  });
  return counts;
}

/** A thread made over the API with one answered prompt; returns its id and answer. */
async function answeredThread(
  page: Page,
  prompt: string,
): Promise<{ threadId: string; environmentId: string; answer: { id: string; text: string } }> {
  const created = await page.request.post("/api/threads", { data: {} });
  const thread = (await created.json()) as { id: string; environmentId: string };
  await page.request.post(`/api/threads/${thread.id}/turns`, { data: { input: prompt } });
  let answer: { id: string; text: string } | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/threads/${thread.id}/messages`);
        const body = (await res.json()) as {
          messages: { id: string; kind: string; text: string; status: string }[];
        };
        answer = body.messages.find((m) => m.kind === "answer" && m.status === "complete");
        return answer !== undefined;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return { threadId: thread.id, environmentId: thread.environmentId, answer: answer! };
}

test("1,200 threads: the sidebar scrolls to the oldest, a page at a time, and opens it", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A server process of its own, on a data dir seeded with 1,200 threads first.
  const dataDir = await mkdtemp(join(tmpdir(), "chat-e2e-many-"));
  try {
    const store = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
    try {
      await store.transaction(async (tx) => {
        for (let i = 1; i <= 1200; i++) {
          const id = `many-${String(i).padStart(4, "0")}`;
          // Older threads first; pairs share their instant (ties in updated_at).
          const at = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 2) * 60_000).toISOString();
          await tx.createThread({ id, title: `Listed thread ${i}`, now: at });
          await tx.insertTurnWithPrompt({
            threadId: id,
            turnId: `${id}-t`,
            messageId: `${id}-m`,
            text: `hello ${i}`,
            providerInput: `hello ${i}`,
            now: at,
          });
          await tx.updateTurn({ id: `${id}-t`, status: "completed", completedAt: at });
        }
      });
    } finally {
      await store.close();
    }
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      WEB_DIST: join(REPO_ROOT, "apps/web/dist"),
      LOG_LEVEL: "warn",
    });
    try {
      const pages: string[] = [];
      page.on("request", (request) => {
        if (/\/api\/threads\?/.test(request.url())) pages.push(request.url());
      });
      await page.goto(`${server.url}/`);
      const list = page.locator("[data-thread-list] .thread-list__scroller");
      await expect(page.getByRole("link", { name: /Listed thread 1200\b/ })).toBeVisible();
      // Far fewer rows mounted than threads loaded: the list is windowed.
      expect(await page.locator("[data-thread-row]").count()).toBeLessThan(200);
      const oldest = page.getByRole("link", { name: /Listed thread 1\b/ });
      await expect
        .poll(
          async () => {
            await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
            return oldest.isVisible();
          },
          { timeout: 60_000, intervals: [100] },
        )
        .toBe(true);
      expect(pages.length).toBeGreaterThanOrEqual(1200 / 50);
      await oldest.click();
      await expect(page).toHaveURL(/\/many-0001$/);
      await expect(page.getByRole("heading", { level: 1, name: "Listed thread 1" })).toBeVisible();
    } finally {
      await server.kill();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("Rename thread with F2 in place; the title stays after a reload", async ({ page }) => {
  test.setTimeout(60_000);
  const { threadId, environmentId } = await answeredThread(page, "rename target prompt");
  await page.goto(`/${environmentId}/${threadId}`);
  const link = page.locator(`a[data-thread-id="${threadId}"]`);
  await link.focus();
  await page.keyboard.press("F2");
  const box = page.getByRole("textbox", { name: "Rename thread" });
  await expect(box).toBeFocused();
  await box.fill("Escaped name");
  await box.press("Escape");
  await expect(link).toContainText("rename target prompt");
  await expect(link).toBeFocused();
  await page.keyboard.press("F2");
  await box.fill("My renamed thread");
  await box.press("Enter");
  await expect(link).toContainText("My renamed thread");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My renamed thread");
  await page.reload();
  await expect(page.locator(`a[data-thread-id="${threadId}"]`)).toContainText("My renamed thread");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My renamed thread");
});

test("a rename reaches another tab live, without a reload", async ({ page, context }) => {
  test.setTimeout(60_000);
  const { threadId, environmentId } = await answeredThread(page, "shared between tabs");
  await page.goto(`/${environmentId}/${threadId}`);
  const other = await context.newPage();
  await other.goto("/");
  const otherLink = other.locator(`a[data-thread-id="${threadId}"]`);
  await expect(otherLink).toContainText("shared between tabs");
  await page.locator(`a[data-thread-id="${threadId}"]`).focus();
  await page.keyboard.press("F2");
  const box = page.getByRole("textbox", { name: "Rename thread" });
  await box.fill("Seen in the other tab");
  await box.press("Enter");
  await expect(otherLink).toContainText("Seen in the other tab");
  await other.close();
});

test("a rename and a delete made elsewhere reach the sidebar live, with no focus or reload", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const { threadId } = await answeredThread(page, "watched from afar");
  await page.goto("/");
  const link = page.locator(`a[data-thread-id="${threadId}"]`);
  await expect(link).toContainText("watched from afar");
  // Another browser (its own context: no BroadcastChannel, no shared focus) changes the thread.
  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const renamed = await elsewhere.request.patch(`/api/threads/${threadId}`, {
      data: { title: "Renamed elsewhere" },
    });
    expect(renamed.status()).toBe(200);
    await expect(link).toContainText("Renamed elsewhere");
    const deleted = await elsewhere.request.delete(`/api/threads/${threadId}`, { data: {} });
    expect(deleted.status()).toBe(200);
    await expect(link).toHaveCount(0);
  } finally {
    await elsewhere.close();
  }
});

test("Delete thread, Undo, delete again: a chip citing it says the source was deleted", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const source = await answeredThread(page, "a source to delete later");
  const rendered = renderedTextOfMarkdown(source.answer.text, "assistant");
  const start = rendered.indexOf(" ") + 1;
  const selector = createAssistantCitationSelector(rendered, start, start + 20)!;
  const link = serializeAssistantCitation({
    version: 1,
    environmentId: source.environmentId,
    threadId: source.threadId,
    messageId: source.answer.id,
    ...selector,
    comment: "Kept after deletion",
  });
  const citing = await answeredThread(page, `Look at ${link} please`);

  await page.goto(`/${citing.environmentId}/${citing.threadId}`);
  const sourceRow = page.locator(`[data-thread-row="${source.threadId}"]`);
  await sourceRow.getByRole("button", { name: /Thread actions/ }).click();
  await page.getByRole("menuitem", { name: "Delete thread" }).click();
  await expect(sourceRow).toHaveCount(0);
  const status = page.getByRole("status").filter({ hasText: "Deleted" });
  await expect(status).toBeVisible();
  await status.getByRole("button", { name: "Undo" }).click();
  await expect(sourceRow).toBeVisible();
  expect((await page.request.get(`/api/threads/${source.threadId}`)).status()).toBe(200);

  await sourceRow.getByRole("button", { name: /Thread actions/ }).click();
  await page.getByRole("menuitem", { name: "Delete thread" }).click();
  await expect(sourceRow).toHaveCount(0);
  const chip = page.getByRole("link", {
    name: "Assistant quote from another thread: Kept after deletion",
    exact: true,
  });
  await chip.click();
  await expect(
    page.getByRole("status").filter({ hasText: "The source was deleted" }),
  ).toBeVisible();
  await expect(page.locator(".thread-view__deleted-quote")).toContainText("Kept after deletion");
});

test("Ctrl+K finds a phrase 1,900 turns deep and opens it highlighted in view", async ({
  page,
  rig,
}) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await expect(composer(page)).toBeVisible();
  await page.keyboard.press("Control+k");
  await expect(searchBox(page)).toBeFocused();
  await searchBox(page).fill('"step 100"');
  const dialog = page.getByRole("dialog", { name: "Search all threads" });
  // The seeded thread's result: a branch of it made earlier on this worker's server (newer, so
  // listed first) may hold the phrase too.
  const rows = dialog.locator("[data-search-result]");
  const seeded = rows.filter({ has: page.locator(`[data-search-thread="${rig.seededThreadId}"]`) });
  await expect(seeded).toContainText('"step 100"');
  await expect(seeded.locator("mark").first()).toHaveText('"step 100"');
  const index = await rows.evaluateAll(
    (elements, id) =>
      elements.findIndex((row) => row.querySelector(`[data-search-thread="${id}"]`) !== null),
    rig.seededThreadId,
  );
  const counts = countAround(page);
  await searchBox(page).press("ArrowDown");
  await searchBox(page).press("ArrowUp");
  for (let step = 0; step < index; step++) await searchBox(page).press("ArrowDown");
  await searchBox(page).press("Enter");
  await expect(page).toHaveURL(new RegExp(`/${rig.seededThreadId}$`));
  await expect.poll(() => currentInView(page), { timeout: 20_000 }).toBe('"step 100"');
  expect(counts.around).toBe(1);
});

test("Search all threads: Match case and Whole words as in the find bar; Tab stays in the dialog", async ({
  page,
}) => {
  test.setTimeout(60_000);
  // A word no other test (or an earlier attempt) writes; each thread holds it twice (the
  // prompt, and the demo answer that repeats it).
  const token = `quokka${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const Token = token[0]!.toUpperCase() + token.slice(1);
  const upper = await answeredThread(page, `${Token} upper`);
  const lower = await answeredThread(page, `${token} lower`);
  expect(lower.threadId).not.toBe(upper.threadId);
  await page.goto("/");
  await page.keyboard.press("Control+k");
  const dialog = page.getByRole("dialog", { name: "Search all threads" });
  const status = dialog.getByRole("status");
  const threadsShown = dialog.locator("[data-search-thread]");
  // The status names the results of the query shown, so each step waits for its own answer.
  await searchBox(page).fill(Token);
  await expect(status).toHaveText(/^4 matches/);
  await expect(threadsShown).toHaveCount(2);
  const matchCase = dialog.getByRole("button", { name: "Match case" });
  await matchCase.click();
  await expect(matchCase).toHaveAttribute("aria-pressed", "true");
  await expect(status).toHaveText(/^2 matches/);
  await expect(threadsShown).toHaveCount(1);
  await expect(threadsShown.first()).toHaveAttribute("data-search-thread", upper.threadId);
  await matchCase.click();
  await expect(status).toHaveText(/^4 matches/);
  // Whole words: the token's first part is inside a word, never a word of its own.
  await searchBox(page).fill(token.slice(0, -2));
  await expect(status).toHaveText(/^4 matches/);
  await dialog.getByRole("button", { name: "Whole words" }).click();
  await expect(status).toHaveText(/No matches/);
  // Modal: Shift+Tab from the textbox goes to the dialog's last control (with no results,
  // Whole words), Tab wraps back.
  await searchBox(page).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: "Whole words" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(searchBox(page)).toBeFocused();
  await searchBox(page).fill(token);
  await expect(status).toHaveText(/^4 matches/);
});

/**
 * Opens Search all threads from the sidebar's search box (the control focus would otherwise go
 * back to) and searches `"step 100"`; `seeded` is the seeded thread's own result (a branch of it
 * on this worker's server may be listed first).
 */
async function searchSeededStep100(page: Page, seededThreadId: string) {
  await page.getByRole("textbox", { name: "Search all threads" }).click();
  await searchBox(page).fill('"step 100"');
  const dialog = page.getByRole("dialog", { name: "Search all threads" });
  const seeded = dialog
    .locator("[data-search-result]")
    .filter({ has: page.locator(`[data-search-thread="${seededThreadId}"]`) });
  await expect(seeded).toContainText('"step 100"');
  return { dialog, seeded };
}

test("Cite from a search result, send, then click the chip", async ({ page, rig }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  await expect(composer(page)).toBeVisible();
  const { dialog, seeded } = await searchSeededStep100(page, rig.seededThreadId);
  await seeded.getByRole("button", { name: "Cite" }).click();
  await expect(dialog).toHaveCount(0);
  const chip = composer(page).locator("[data-composer-citation-chip]");
  await expect(chip).toHaveCount(1);
  // The comment editor opens beside a new chip; Escape leaves it without a comment.
  const comment = page.getByRole("textbox", { name: "Comment on quote" });
  if (await comment.isVisible()) await comment.press("Escape");
  await composer(page).press("Enter");
  await expect(page).toHaveURL(/\/[^/]+\/[^/#]+$/);
  const sent = page.locator("[data-assistant-citation-chip]").first();
  await expect(sent).toBeVisible();
  await expect(page.getByText("I received 1 citation").first()).toBeVisible({ timeout: 30_000 });
  await sent.click();
  await expect(page).toHaveURL(new RegExp(`/${rig.seededThreadId}#assistant-citation=`));
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const highlight = CSS.highlights.get("assistant-citation");
          return highlight ? [...highlight].map((r) => (r as Range).toString()).join("") : "";
        }),
      { timeout: 20_000 },
    )
    .toBe('"step 100"');
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe: the search dialog and the thread menu have no serious findings (${colorScheme})`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme });
    await page.goto("/");
    await expect(composer(page)).toBeVisible();
    await page.keyboard.press("Control+k");
    await searchBox(page).fill("step 1");
    await expect(
      page
        .getByRole("dialog", { name: "Search all threads" })
        .locator("[data-search-result]")
        .first(),
    ).toBeVisible();
    const findings: string[] = [];
    const analyze = async (state: string) => {
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      for (const v of results.violations) {
        if (v.impact !== "serious" && v.impact !== "critical") continue;
        for (const node of v.nodes) findings.push(`${state}: ${v.id} at ${node.target.join(" ")}`);
      }
    };
    await analyze("dialog");
    await searchBox(page).press("Escape");
    const menuButton = page.getByRole("button", { name: /Thread actions/ }).first();
    await menuButton.click();
    await expect(page.getByRole("menu", { name: "Thread actions" })).toBeVisible();
    await analyze("menu");
    expect(findings).toEqual([]);
    void DEMO_ANSWER_END;
  });
}

test("Export as Markdown downloads export.md with the thread, on a desktop and on a phone", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { threadId, environmentId, answer } = await answeredThread(page, "export this prompt");
  const exported = async (p: Page) => {
    await p.goto(`/${environmentId}/${threadId}`);
    const link = p.getByRole("link", { name: "Export as Markdown" });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([p.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("export.md");
    const path = await download.path();
    const { readFile } = await import("node:fs/promises");
    return readFile(path, "utf8");
  };
  const markdown = await exported(page);
  expect(markdown).toContain("export this prompt");
  // The answer's opening words as the demo provider wrote them (its Markdown, not HTML).
  expect(markdown).toContain(answer.text.slice(0, 40));

  // On a phone the link shows "Export" alone, so the title keeps the room; its name is whole.
  const phone = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 780 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    const phonePage = await phone.newPage();
    const title = phonePage.getByRole("heading", { level: 1 });
    expect(await exported(phonePage)).toBe(markdown);
    await expect(phonePage.getByRole("link", { name: "Export as Markdown" })).toHaveText(
      "Export as Markdown",
    );
    // The title gets more of the header than the link does.
    const [titleBox, linkBox] = await Promise.all([
      title.boundingBox(),
      phonePage.getByRole("link", { name: "Export as Markdown" }).boundingBox(),
    ]);
    expect(titleBox!.width).toBeGreaterThan(linkBox!.width);
  } finally {
    await phone.close();
  }
});

/** Two animation frames: focus moved "in a coming frame" has landed by then. */
function frames(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  );
}

test("Rename from Thread actions with Enter gives focus back to the thread's link", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { threadId, environmentId } = await answeredThread(page, "renamed from the menu");
  await page.goto(`/${environmentId}/${threadId}`);
  const row = page.locator(`[data-thread-row="${threadId}"]`);
  const link = page.locator(`a[data-thread-id="${threadId}"]`);
  const actions = row.getByRole("button", { name: /Thread actions/ });
  await expect(actions).toBeVisible();
  for (let i = 0; i < 40 && !(await actions.evaluate((b) => b === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(actions).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Rename thread" })).toBeFocused();
  await page.keyboard.press("Enter");
  const box = page.getByRole("textbox", { name: "Rename thread" });
  await expect(box).toBeFocused();
  await page.keyboard.press("Control+a");
  await page.keyboard.type("Saved with Enter");
  await page.keyboard.press("Enter");
  await expect(link).toContainText("Saved with Enter");
  await frames(page);
  await expect(link).toBeFocused();
  // F2 and Enter as well, more than once (each save re-renders the list under the textbox).
  for (const name of ["Saved with F2", "Saved with F2 again", "Saved with F2 once more"]) {
    await link.focus();
    await page.keyboard.press("F2");
    await box.fill(name);
    await box.press("Enter");
    await expect(link).toContainText(name);
    await frames(page);
    await expect(link).toBeFocused();
  }
});

test("Undo after deleting the open thread focuses its link in the list, staying home", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { threadId, environmentId } = await answeredThread(page, "deleted then undone");
  await page.goto(`/${environmentId}/${threadId}`);
  const row = page.locator(`[data-thread-row="${threadId}"]`);
  await row.getByRole("button", { name: /Thread actions/ }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("menuitem", { name: "Delete thread" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(row).toHaveCount(0);
  const undo = page.getByRole("status").filter({ hasText: "Deleted" }).getByRole("button", {
    name: "Undo",
  });
  await undo.focus();
  await page.keyboard.press("Enter");
  const link = page.locator(`a[data-thread-id="${threadId}"]`);
  await expect(link).toBeVisible();
  await frames(page);
  await expect(link).toBeFocused();
  await expect(page).toHaveURL(/\/$/);
});

test("Cite from Search all threads by keyboard leaves focus in the composer after the chip", async ({
  page,
  rig,
}) => {
  test.setTimeout(60_000);
  const { threadId, environmentId } = await answeredThread(page, "a thread to cite into");
  await page.goto(`/${environmentId}/${threadId}`);
  await expect(composer(page)).toBeVisible();
  const { dialog, seeded } = await searchSeededStep100(page, rig.seededThreadId);
  await seeded.getByRole("button", { name: "Cite" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  const chip = composer(page).locator("[data-composer-citation-chip]");
  await expect(chip).toHaveCount(1);
  await frames(page);
  await expect(composer(page)).toBeFocused();
  // The caret is right after the chip (at most the separating space between them).
  const afterChip = await chip.evaluate((node) => {
    const selection = window.getSelection();
    if (selection === null || selection.anchorNode === null) return null;
    const around = document.createRange();
    around.selectNode(node);
    if (around.comparePoint(selection.anchorNode, selection.anchorOffset) !== 1) return null;
    const between = document.createRange();
    between.setStartAfter(node);
    between.setEnd(selection.anchorNode, selection.anchorOffset);
    return between.toString();
  });
  expect(afterChip).toMatch(/^\s?$/);
});

test("a long one-word title in the Deleted status stays inside the sidebar, desktop and phone", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const title = `Pneumonoultramicroscopic${"silicovolcanoconiosis".repeat(8)}`;
  const deleteAndMeasure = async (p: Page) => {
    const { threadId } = await answeredThread(p, "a title without spaces");
    const renamed = await p.request.patch(`/api/threads/${threadId}`, { data: { title } });
    expect(renamed.status()).toBe(200);
    await p.goto("/");
    const row = p.locator(`[data-thread-row="${threadId}"]`);
    await row.getByRole("button", { name: /Thread actions/ }).click();
    await p.getByRole("menuitem", { name: "Delete thread" }).click();
    const status = p.getByRole("status").filter({ hasText: "Deleted" });
    await expect(status).toBeVisible();
    await expect(status).toContainText(title);
    return status.evaluate((node) => {
      const box = node.getBoundingClientRect();
      const sidebar = node.closest(".sidebar")!.getBoundingClientRect();
      const undo = node.querySelector("button")!.getBoundingClientRect();
      return {
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        statusRight: box.right,
        sidebarRight: sidebar.right,
        undoRight: undo.right,
        viewport: window.innerWidth,
      };
    });
  };
  const check = (m: Awaited<ReturnType<typeof deleteAndMeasure>>) => {
    expect(m.pageOverflow).toBeLessThanOrEqual(0);
    expect(m.statusRight).toBeLessThanOrEqual(m.sidebarRight);
    expect(m.undoRight).toBeLessThanOrEqual(Math.min(m.sidebarRight, m.viewport));
  };
  check(await deleteAndMeasure(page));
  const phone = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    check(await deleteAndMeasure(await phone.newPage()));
  } finally {
    await phone.close();
  }
});
