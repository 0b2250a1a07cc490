/**
 * The Content-Security-Policy fits the app (issue 19 item 8): in Debian's Chromium, the app loads
 * a long thread (the inline prefetch script runs, allowed by its hash), streams a reply and
 * scrolls, with no CSP violation reported; and a page of another origin cannot frame it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import {
  assistantBodies,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
} from "./support/fixtures.ts";

/** Collects every CSP violation the page reports (event and console) from its first script. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = list;
    document.addEventListener("securitypolicyviolation", (event) => {
      list.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`);
    });
  });
  return async () => [
    ...(await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    )),
    ...console,
  ];
}

test("the app loads, prefetches, streams and scrolls under its CSP with no violation", async ({
  page,
  rig,
}) => {
  const violations = await recordViolations(page);
  const response = await page.goto(rig.seededThreadPath);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
  expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
  // The page has an inline script (the prefetch); a wrong hash would report a violation below.
  expect(await page.locator("script:not([src])").count()).toBeGreaterThan(0);
  await expect(assistantBodies(page).last()).toBeVisible();
  // Scroll through history (list styles, fonts and history requests under the policy).
  await page.mouse.move(640, 400);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -4000);
  await expect(assistantBodies(page).first()).toBeVisible();

  await createThreadFromUi(page);
  await sendPrompt(page, "A reply under the content security policy");
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  expect(await violations()).toEqual([]);

  // The recorder does see violations: an injected inline script is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement("script");
    script.textContent = "window.injected = true;";
    document.body.append(script);
  });
  await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
  expect((await violations())[0]).toMatch(/^script-src/);
  expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
});

let framer: Server;
let framerUrl = "";

test.beforeAll(async ({ rig }) => {
  framer = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>framer</title><iframe src="${rig.baseURL}/"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => framer.close(() => resolve()));
});

test("a page of another origin cannot frame the app", async ({ page, rig }) => {
  const framed = page.waitForResponse((res) => res.url() === `${rig.baseURL}/`);
  await page.goto(framerUrl);
  expect((await framed).status()).toBe(200);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  // The app never runs inside: the browser shows its own error page in the frame.
  await expect
    .poll(async () => frame!.evaluate(() => document.getElementById("root") !== null))
    .toBe(false);
  expect(frame!.url()).not.toBe(`${rig.baseURL}/`);
});
