/**
 * Browser safety and Stop in Debian's Chromium (issue 12):
 * - a page of another origin (another port on 127.0.0.1) cannot create a thread: not with a
 *   `text/plain` fetch, not with a JSON fetch (its CORS preflight is never approved), not with
 *   a form post;
 * - **Stop** ends a running reply; what was streamed stays readable and the turn is `cancelled`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  assistantBodies,
  createThreadFromUi,
  DEMO_ANSWER_END,
  expect,
  sendPrompt,
  test,
  threadIdOf,
} from "./support/fixtures.ts";

type Thread = { id: string; title: string };
type MessagePage = {
  messages: { id: string; kind: string; status: string; text: string }[];
  turns: { status: string }[];
};

/** A page that tries every way a foreign page has to create a thread on `target`. */
function attackerPage(target: string): string {
  return `<!doctype html><title>elsewhere</title>
<form id="f" method="POST" action="${target}/api/threads" enctype="text/plain" target="sink">
  <input name='{"title":"form","x":"' value='"}'>
</form>
<iframe name="sink"></iframe>
<script>
  window.attempts = (async () => {
    const results = [];
    const tries = [
      () => fetch("${target}/api/threads", { method: "POST", mode: "no-cors",
        headers: { "content-type": "text/plain" }, body: '{"title":"text/plain"}' }),
      () => fetch("${target}/api/threads", { method: "POST",
        headers: { "content-type": "application/json" }, body: '{"title":"json"}' }),
      () => fetch("${target}/api/threads", { method: "POST", mode: "no-cors", body: "{}" }),
    ];
    for (const attempt of tries) {
      try { const r = await attempt(); results.push(r.type + ":" + r.status); }
      catch (e) { results.push("blocked"); }
    }
    document.getElementById("f").submit();
    await new Promise((resolve) => document.querySelector("iframe").onload = resolve);
    return results;
  })();
</script>`;
}

let attacker: Server;
let attackerUrl = "";

test.beforeAll(async ({ rig }) => {
  attacker = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(attackerPage(rig.baseURL));
  });
  await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => attacker.close(() => resolve()));
});

test("a page of another origin cannot create a thread", async ({ page, request }) => {
  const before = ((await (await request.get("/api/threads")).json()) as { threads: Thread[] })
    .threads.length;
  await page.goto(attackerUrl);
  const results = await page.evaluate(
    () => (window as unknown as { attempts: Promise<string[]> }).attempts,
  );
  // no-cors requests are sent (opaque answers); the JSON one is stopped by its preflight.
  expect(results).toEqual(["opaque:0", "blocked", "opaque:0"]);
  const after = ((await (await request.get("/api/threads")).json()) as { threads: Thread[] })
    .threads;
  expect(after).toHaveLength(before);
  expect(after.map((t) => t.title)).not.toContain("text/plain");
});

test("Stop ends a running reply and keeps what it streamed readable", async ({ page, request }) => {
  await createThreadFromUi(page);
  const threadId = threadIdOf(page);
  await sendPrompt(page, "Write a long reply please");
  const stop = page.getByRole("button", { name: "Stop" });
  await expect(stop).toBeVisible();
  await expect(assistantBodies(page).last()).toContainText("Part 2");
  await stop.click();
  await expect(stop).toHaveCount(0);

  const messages = (await (
    await request.get(`/api/threads/${threadId}/messages`)
  ).json()) as MessagePage;
  expect(messages.turns.at(-1)?.status).toBe("cancelled");
  const answer = messages.messages.at(-1)!;
  expect(answer.kind).toBe("answer");
  expect(answer.status).toBe("complete");
  expect(answer.text).toContain("### Part 2");
  expect(answer.text).not.toContain("### Part 40");
  // The stopped reply is on the page, whole, and the thread takes a new prompt.
  await expect(assistantBodies(page).last()).toContainText("Part 2");
  await expect(page.locator(`[data-message-id="${answer.id}"]`)).toHaveAttribute(
    "data-status",
    "complete",
  );
  await sendPrompt(page, "And a short one");
  await expect(assistantBodies(page).last()).toContainText(DEMO_ANSWER_END);
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
});
