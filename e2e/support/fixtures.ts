/**
 * The `test` every spec imports: Playwright's test with the rig state and a few helpers that
 * name the app's DOM contract (DESIGN.md section 6, apps/web/src/composer/README.md) in one
 * place, so a renamed control breaks one helper rather than every spec.
 */
import { test as base, expect as baseExpect, type Locator, type Page } from "@playwright/test";
import type { RigServer, RigServerOptions, RigState, SeedTemplate } from "./rig.ts";

/** How often `expect.poll` checks, unless a call gives its own `intervals`. */
const POLL_INTERVALS = [100];

/**
 * Playwright's `expect`, except that `expect.poll` checks every {@link POLL_INTERVALS} ms unless
 * the call says otherwise: Playwright's own default backs off to one check a second, so a
 * condition that comes true after a second or two (a streamed reply, a stored turn) was seen up
 * to a second late.
 */
export const expect: typeof baseExpect = (() => {
  const configured = baseExpect.configure({});
  const poll = configured.poll;
  configured.poll = ((actual, messageOrOptions) =>
    poll(
      actual,
      typeof messageOrOptions === "string"
        ? { message: messageOrOptions, intervals: POLL_INTERVALS }
        : { intervals: POLL_INTERVALS, ...messageOrOptions },
    )) as typeof poll;
  return configured;
})();

/** Ranges' text of the `assistant-citation` highlight (empty when there is none). */
export function highlightedText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const highlight = CSS.highlights.get("assistant-citation");
    return highlight ? [...highlight].map((range) => range.toString()) : [];
  });
}

/**
 * Serves `pathname`'s page as a server without first rows would (issue 33): the plain
 * index.html, so the app fetches the thread itself (through index.html's prefetch). For specs
 * that rewrite the thread's API answers with `page.route`. Call before `page.goto`.
 */
export async function withoutFirstRows(page: Page, pathname: string): Promise<void> {
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      const response = await route.fetch();
      const body = (await response.text())
        .replace('<meta name="first-rows" content="thread">', "")
        .replace(/<div id="first-rows"[\s\S]*?(?=<div id="root"><\/div>)/, "")
        .replace(/<script type="application\/json" id="first-rows-data">[^<]*<\/script>/, "")
        .replace(/<title>[^<]*<\/title>/, "<title>Chat</title>");
      expect(body).not.toMatch(/id="first-rows|<meta name="first-rows"/);
      await route.fulfill({ response, body });
    },
  );
}

/** Path of a thread page: `/<environmentId>/<threadId>`. */
export const THREAD_PATH = /^\/[^/]+\/[^/#?]+$/;

/** The composer editor (Lexical, role textbox, accessible name "Message"). */
export function composer(page: Page): Locator {
  return page.getByRole("textbox", { name: "Message", exact: true });
}

/** Every rendered timeline row (prompts, progress updates, answers). */
export function messageRows(page: Page): Locator {
  return page.locator("[data-message-id]");
}

/** The user's own messages (the demo echoes a prompt's first words, so match these rows). */
export function userRows(page: Page): Locator {
  return page.locator('[data-message-id][data-role="user"]');
}

/** Assistant message bodies (each carries `data-assistant-citation-source="<messageId>"`). */
export function assistantBodies(page: Page): Locator {
  return page.locator("[data-assistant-citation-source]");
}

/** The timeline row of one message. */
export function row(page: Page, messageId: string): Locator {
  return page.locator(`[data-message-id="${messageId}"]`);
}

/** The thread id in the current URL. */
export function threadIdOf(page: Page): string {
  const parts = new URL(page.url()).pathname.split("/").filter(Boolean);
  const id = parts[1];
  if (parts.length !== 2 || id === undefined) throw new Error(`Not a thread page: ${page.url()}`);
  return id;
}

/**
 * Opens a fresh, empty thread page and waits for its composer. "New thread" opens the home
 * composer as a draft (the thread exists from its first send, DESIGN.md section 6), so the
 * thread is created through the API, and the page opened by its URL as a link to it would.
 * Specs of the New thread button itself use {@link openNewThreadDraft}.
 */
export async function createThreadFromUi(page: Page): Promise<string> {
  const response = await page.request.post("/api/threads", { data: {} });
  expect(response.status()).toBe(201);
  const thread = (await response.json()) as { id: string; environmentId: string };
  await page.goto(`/${thread.environmentId}/${thread.id}`);
  await expect(composer(page)).toBeVisible();
  return thread.id;
}

/** Clicks "New thread" and waits for the home composer it opens (no thread is created). */
export async function openNewThreadDraft(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New thread", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(composer(page)).toBeFocused();
}

/**
 * Enters a prompt into the composer as one text insertion (as an IME or dictation would; much
 * faster than key-by-key typing on a busy machine) and sends it with Enter.
 */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const box = composer(page);
  await box.click();
  await page.keyboard.insertText(text);
  await expect(box).toContainText(text.slice(0, 20));
  await box.press("Enter");
}

/** Resolves once the server says the thread has no running turn (its reply is stored whole). */
export async function turnEnded(page: Page, threadId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`/api/threads/${threadId}`);
        return ((await response.json()) as { activeTurn: unknown }).activeTurn;
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBeNull();
}

/**
 * Resolves once the timeline's rows have not changed for 10 frames in a row (and, with
 * `scroll: true`, neither has its scroll position): the list has measured and placed what it
 * shows, so a pointer aimed at a row now meets it.
 */
export async function timelineQuiet(page: Page, { scroll = false } = {}): Promise<void> {
  await page.locator(".timeline__scroller").evaluate(
    (el, watchScroll) =>
      new Promise<void>((resolve) => {
        let quietFrames = 0;
        let top = el.scrollTop;
        const observer = new MutationObserver(() => {
          quietFrames = 0;
        });
        observer.observe(el, { subtree: true, childList: true, characterData: true });
        const frame = () => {
          quietFrames = watchScroll && el.scrollTop !== top ? 0 : quietFrames + 1;
          top = el.scrollTop;
          if (quietFrames >= 10) {
            observer.disconnect();
            resolve();
          } else {
            requestAnimationFrame(frame);
          }
        };
        requestAnimationFrame(frame);
      }),
    scroll,
  );
}

/**
 * The last sentence of a demo answer to a prompt without citations (its citation account):
 * once it is shown, the reply is complete.
 */
export const DEMO_ANSWER_END = "I received no citations with this message.";

/**
 * Puts the test in charge of a thread's live events (its `/api/threads/<id>/events` stream; the
 * thread list's stream is left alone): once `hold(true)`, each of them waits in
 * a queue until `release(n)` hands the next `n` to the app (resolving to how many still wait),
 * so a reply grows exactly when the test says, however busy the machine is. Call before the
 * page loads the app.
 */
export async function controlThreadEvents(page: Page): Promise<{
  hold(held: boolean): Promise<void>;
  release(count: number): Promise<number>;
  /**
   * Hands the app the held events one at a time, every 50 ms for up to 30 s, until `read`
   * (called after each) passes the matcher the caller chains on, e.g.
   * `await events.releaseUntil(() => reply.locator("p").count()).toBeGreaterThanOrEqual(2)`.
   */
  releaseUntil<T>(read: () => Promise<T>): ReturnType<typeof expect.poll<T>>;
}> {
  await page.addInitScript(() => {
    const w = window as unknown as {
      holdThreadEvents?: boolean;
      releaseThreadEvents?: (count: number) => number;
    };
    const add = EventSource.prototype.addEventListener;
    const queue: (() => void)[] = [];
    w.releaseThreadEvents = (count) => {
      for (let i = 0; i < count && queue.length > 0; i++) queue.shift()!();
      return queue.length;
    };
    EventSource.prototype.addEventListener = function (
      this: EventSource,
      type: string,
      listener: EventListenerOrEventListenerObject,
      options?: boolean | AddEventListenerOptions,
    ) {
      // Only a thread's own stream (`/api/threads/<id>/events`). The thread list's stream
      // (`/api/threads/events`, the sidebar) passes: held in the same queue, its events took
      // turns with the reply's, so a `release(n)` sometimes handed the app no chunk at all.
      const threadStream = /\/api\/threads\/[^/?]+\/events/.test(new URL(this.url).pathname);
      if (!threadStream || typeof listener !== "function" || type === "open" || type === "error") {
        return add.call(this, type, listener, options);
      }
      const held = (event: Event) => {
        if (!w.holdThreadEvents && queue.length === 0) return listener.call(this, event);
        queue.push(() => listener.call(this, event));
      };
      return add.call(this, type, held, options);
    } as typeof EventSource.prototype.addEventListener;
  });
  const release = (count: number) =>
    page.evaluate(
      (count) =>
        (window as unknown as { releaseThreadEvents: (n: number) => number }).releaseThreadEvents(
          count,
        ),
      count,
    );
  return {
    hold: (held) =>
      page.evaluate((held) => {
        (window as unknown as { holdThreadEvents: boolean }).holdThreadEvents = held;
      }, held),
    release,
    releaseUntil: <T>(read: () => Promise<T>) =>
      expect.poll(
        async () => {
          await release(1);
          return read();
        },
        { intervals: [50], timeout: 30_000 },
      ),
  };
}

/** The seed support/globalSetup.ts made once for the run (E2E_SEED_TEMPLATE). */
function seedFromGlobalSetup(): SeedTemplate | undefined {
  const json = process.env.E2E_SEED_TEMPLATE;
  return json ? (JSON.parse(json) as SeedTemplate) : undefined;
}

/**
 * rigServer.ts `startRigServer`, imported when a worker first needs it. rigServer.ts imports the
 * server's source, which is typechecked with Node's types only (e2e/tsconfig.server.json), not
 * with this program's DOM library, so the specifier is not one tsc follows; rig.ts holds the
 * types both sides share.
 */
async function startRigServer(options: RigServerOptions): Promise<RigServer> {
  const module = new URL("./rigServer.ts", import.meta.url).href;
  const { startRigServer: start } = (await import(module)) as {
    startRigServer(options: RigServerOptions): Promise<RigServer>;
  };
  return start(options);
}

/**
 * Fixtures shared by every spec. `rig` is worker-scoped: each Playwright worker starts its own
 * server (in the worker process, on a free port) with its own temporary DATA_DIR holding a copy
 * of the seeded database, and stops it when the worker ends; `baseURL` points at it. Tests of one
 * worker share that server; tests of different workers never meet.
 */
export const test = base.extend<Record<never, never>, { rig: RigState }>({
  rig: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument.
    async ({}, use) => {
      const server = await startRigServer({ port: 0, template: seedFromGlobalSetup() });
      try {
        await use(server.state);
      } finally {
        await server.close();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
  baseURL: async ({ rig }, use) => {
    await use(rig.baseURL);
  },
});
