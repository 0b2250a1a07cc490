/**
 * The inline script in index.html requests the thread in the URL while the app's code loads:
 * its detail and its newest page, both at once and before the app's module runs. Requests are
 * held with `page.route` so the order is checked by construction, not by timing. Because the
 * page may then be older than the detail's `lastEventId`, the app fetches the newest page again
 * after the first paint; the second test pins that a message created in between still shows.
 *
 * The server puts a thread's rows and newest page into its page itself (issue 33,
 * e2e/firstRows.spec.ts), and the script then requests nothing. It still prefetches for a page
 * served without them (an older server, a cache, a proxy that strips them): these tests take the
 * served page without them, so they drive that path.
 */
import type { Page, Route } from "@playwright/test";
import { assistantBodies, expect, test, userRows, withoutFirstRows } from "./support/fixtures.ts";

/** Longest a held request waits for the others (a guard: a missed order fails the test below). */
const HOLD_GUARD_MS = 10_000;

type Holds = {
  /** What happened, in order: `detail`, `page` (requested), `module`, `detail-released`. */
  log: string[];
  /** Resolves once both API requests have been seen (or the guard expired). */
  bothRequested: Promise<void>;
};

function isDetail(url: URL, threadId: string): boolean {
  return url.pathname === `/api/threads/${threadId}`;
}

function isNewestPage(url: URL, threadId: string): boolean {
  return (
    url.pathname === `/api/threads/${threadId}/messages` &&
    !["before", "after", "around"].some((key) => url.searchParams.has(key))
  );
}

/**
 * Holds the app's entry module and the detail's response until both API requests have been
 * made. Were either request started by the app's module, or the page only after the detail's
 * response, the hold would wait out its guard instead and the log would show it.
 */
async function holdUntilBothRequested(
  page: Page,
  threadId: string,
  race?: { onNewestPage(route: Route): Promise<void>; releaseDetail: Promise<void> },
): Promise<Holds> {
  const log: string[] = [];
  let seen = 0;
  let release!: () => void;
  const requested = new Promise<void>((resolve) => {
    release = resolve;
  });
  const bothRequested = Promise.race([
    requested,
    new Promise<void>((resolve) => setTimeout(resolve, HOLD_GUARD_MS)),
  ]);
  const saw = (what: string) => {
    log.push(what);
    if (++seen === 2) release();
  };
  // The app's entry module, as the served index.html names it.
  const html = await (await page.request.get("/")).text();
  const entry = /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
  expect(entry, "index.html has a module script").toBeTruthy();
  await page.route(
    (url) => url.pathname === entry,
    async (route) => {
      await bothRequested;
      log.push("module");
      await route.continue();
    },
  );
  let detailSeen = false;
  await page.route(
    (url) => isDetail(url, threadId),
    async (route) => {
      if (detailSeen) return route.continue();
      detailSeen = true;
      saw("detail");
      await bothRequested;
      await race?.releaseDetail;
      log.push("detail-released");
      await route.continue();
    },
  );
  let pageSeen = false;
  await page.route(
    (url) => isNewestPage(url, threadId),
    async (route) => {
      if (pageSeen) return route.continue();
      pageSeen = true;
      saw("page");
      if (race) await race.onNewestPage(route);
      else await route.continue();
    },
  );
  return { log, bothRequested };
}

test("the thread's detail and newest page are requested together, before the app's module runs", async ({
  page,
  rig,
}) => {
  const requests: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (isDetail(url, rig.seededThreadId)) requests.push("detail");
    else if (isNewestPage(url, rig.seededThreadId)) requests.push("page");
  });
  const { log } = await holdUntilBothRequested(page, rig.seededThreadId);
  await withoutFirstRows(page, rig.seededThreadPath);
  await page.goto(rig.seededThreadPath);
  // The newest rows show (other specs may have added turns after the seeded ones).
  await expect(assistantBodies(page).last()).toBeVisible();

  expect(log.slice(0, 2).sort()).toEqual(["detail", "page"]);
  expect(log.slice(2).sort()).toEqual(["detail-released", "module"]);
  // The app used the prefetched responses: one detail request in all; the newest page twice
  // (the prefetch, then once more after the first paint).
  await expect.poll(() => requests.filter((r) => r === "page").length).toBe(2);
  expect(requests.filter((r) => r === "detail")).toHaveLength(1);
});

/** Creates a thread with one finished demo turn; returns its id. */
async function threadWithOneTurn(page: Page): Promise<string> {
  const created = await page.request.post("/api/threads", { data: { title: "Prefetch race" } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  await sendAndWait(page, id, "The first question");
  return id;
}

/** Sends a prompt through the API and waits until its reply is complete. */
async function sendAndWait(page: Page, threadId: string, input: string): Promise<void> {
  const sent = await page.request.post(`/api/threads/${threadId}/turns`, { data: { input } });
  expect(sent.ok()).toBe(true);
  const { turn } = (await sent.json()) as { turn: { id: string } };
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/threads/${threadId}`);
      const detail = (await response.json()) as { activeTurn: { id: string } | null };
      return detail.activeTurn?.id === turn.id ? "running" : "done";
    })
    .toBe("done");
}

test("a message created between the prefetched page and the detail still shows", async ({
  page,
  rig,
}) => {
  const threadId = await threadWithOneTurn(page);
  // The page is answered from a snapshot taken first; a second turn then completes, and only
  // after it does the detail (with the newer lastEventId) reach the app.
  let meanwhileDone!: () => void;
  const releaseDetail = new Promise<void>((resolve) => {
    meanwhileDone = resolve;
  });
  await holdUntilBothRequested(page, threadId, {
    releaseDetail,
    async onNewestPage(route) {
      const stale = await route.fetch();
      const body = await stale.text();
      await sendAndWait(page, threadId, "A question asked meanwhile");
      meanwhileDone();
      await route.fulfill({ response: stale, body });
    },
  });
  await withoutFirstRows(page, `/${rig.environmentId}/${threadId}`);
  await page.goto(`/${rig.environmentId}/${threadId}`);
  await expect(userRows(page).filter({ hasText: "The first question" })).toBeVisible();
  await expect(userRows(page).filter({ hasText: "A question asked meanwhile" })).toBeVisible();
});
