/**
 * Server-rendered first rows (issue 33): a thread page carries its newest rows as static HTML
 * and its newest page as an inert JSON block. Model output (and a user's text) must never run
 * script, load anything or pass for a citation chip in that HTML, and the JSON block must never
 * be closable from inside.
 */
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Message, MessagePage, Thread, ThreadDetail } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  citationLink,
  makeTempDir,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
} from "../testing/harness.ts";
import { rawRequest } from "../testing/rawHttp.ts";
import {
  injectFirstRows,
  jsonForScriptElement,
  renderFirstRows,
  threadIdOfPagePath,
} from "./firstRows.ts";

/** Model output that tries every way out of the page's markup. */
const HOSTILE = [
  "</script><script>window.__pwned = 1</script>",
  '<img src="x" onerror="window.__pwned = 1">',
  '<a data-assistant-citation-chip href="/e/t#assistant-citation=x">Assistant quote</a>',
  "[click](javascript:alert(1)) ![pixel](https://tracker.example/p.png)",
  `A citation printed by the model: ${citationLink({ text: "forged" })}`,
  "\u2028 & </SCRIPT > <style>body{display:none}</style>",
  // Last: an HTML comment block runs to the end of the message.
  "<!-- <script>",
].join("\n\n");

/** The real index.html shape: charset first, an inline script, the root element. */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script>(() => {})();</script>
    <title>Chat</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

function message(overrides: Partial<Message>): Message {
  return {
    id: "m1",
    threadId: "t1",
    turnId: "u1",
    role: "assistant",
    kind: "answer",
    text: "",
    status: "complete",
    seq: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

function detailOf(title: string): ThreadDetail {
  const thread: Thread = {
    id: "t1",
    environmentId: "e1",
    title,
    branchName: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    messageCount: 2,
  } as Thread;
  return { thread, activeTurn: null, pendingUserInput: null, lastEventId: 7 };
}

/** The JSON block's text, cut where an HTML parser would end it (the first `</script`). */
function dataBlock(html: string): string {
  const open = '<script type="application/json" id="first-rows-data">';
  const start = html.indexOf(open);
  expect(start).toBeGreaterThan(-1);
  const from = start + open.length;
  return html.slice(from, html.toLowerCase().indexOf("</script", from));
}

/** Elements the first rows may hold: nothing that runs, loads, styles or embeds. */
const ALLOWED_TAGS = new Set(
  "div aside main section header footer article h1 h2 h3 h4 h5 h6 p span a button strong em del code pre ul ol li blockquote table thead tbody tr th td hr br input sup sub".split(
    " ",
  ),
);

/** Every tag of `html` (escaped text is not a tag) with its attribute names. */
function tagsOf(html: string): { name: string; attributes: string[] }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].map(
    (match) => ({
      name: match[1]!.toLowerCase(),
      attributes: [...(match[2] ?? "").matchAll(/\s+([^\s=>]+)/g)].map((a) => a[1]!.toLowerCase()),
    }),
  );
}

/** Fails when the markup holds a tag or attribute that could run, load or restyle anything. */
function expectInert(markup: string): void {
  const tags = tagsOf(markup);
  expect(tags.length).toBeGreaterThan(10);
  for (const tag of tags) {
    expect(ALLOWED_TAGS.has(tag.name), `<${tag.name}>`).toBe(true);
    for (const name of tag.attributes) {
      expect(name.startsWith("on") || name === "style" || name === "src", name).toBe(false);
      expect(name).not.toBe("data-assistant-citation-chip");
    }
  }
  // A comment would swallow what follows; `<` in text is always escaped.
  expect(markup).not.toContain("<!--");
}

/** The first rows' markup (between `#first-rows` and `#root`). */
function rowsMarkup(html: string): string {
  return html.slice(html.indexOf('<div id="first-rows"'), html.indexOf('<div id="root"></div>'));
}

describe("renderFirstRows", () => {
  const page: MessagePage = {
    messages: [
      message({ id: "p1", role: "user", kind: "prompt", text: `${HOSTILE}\n\n${citationLink()}` }),
      message({ id: "a1", seq: 2, text: HOSTILE }),
    ],
    nextCursor: null,
    newerCursor: null,
    turns: [],
  };
  const detail = detailOf('</title><script>window.__pwned = 1</script>"');
  const html = injectFirstRows(INDEX, renderFirstRows("t1", detail, page, "/e1/t1"))!;

  it("draws hostile text as text: no script, image, style, handler, comment or chip", () => {
    const rows = rowsMarkup(html);
    expect(rows).toContain('data-message-id="a1"');
    expect(rows).toContain('data-message-id="p1"');
    expectInert(rows);
    // Sources are the app's rows only (its citation code looks them up document-wide).
    expect(rows).not.toContain("data-assistant-citation-source");
    expect(rows).not.toMatch(/href="javascript:/i);
    expect(rows).toContain('<span class="md-link-text">click</span>');
    // The markup shows as written text.
    expect(rows).toContain("&#x3C;/script>&#x3C;script>window.__pwned = 1&#x3C;/script>");
    expect(rows).toContain("&#x3C;img");
    // The only link is none: the image became a label, the javascript: link plain text.
    expect(rows).not.toMatch(/<a\s[^>]*href="(?!\/["?]|\/api\/threads\/t1\/export\.md")/);
    expect(rows).toContain("Image: pixel");
    // The user's own citation is an inert label; the model's printed one stays its source.
    const [prompt, answer] = rows.split('data-message-id="a1"');
    expect(prompt!.match(/class="citation-chip"/g)).toHaveLength(2);
    expect(answer).not.toContain('class="citation-chip');
    expect(rows).toContain('<span class="md-link-text">[Assistant quote](t3-citation:');
    // Exactly the page's two scripts: the inline one and the data block.
    // (`<` inside a quoted attribute value is text: only `"` must be escaped there.)
    expect(tagsOf(html).filter((tag) => tag.name === "script")).toHaveLength(2);
    expect(html).toContain('aria-label="</title><script>window.__pwned = 1</script>&#x22;"');
    expect(html).toContain(
      '<title>&#x3C;/title>&#x3C;script>window.__pwned = 1&#x3C;/script>" · Chat</title>',
    );
  });

  it("embeds the detail and the page as JSON that nothing inside can end", () => {
    const block = dataBlock(html);
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(block)).toEqual({ threadId: "t1", detail, page });
  });

  it("draws the newest prompts and answers only, within the budget", () => {
    const messages = Array.from({ length: 40 }, (_, i) =>
      message({
        id: `m${i}`,
        seq: i,
        text: `Message ${i}`,
        kind: i === 38 ? "progress" : "answer",
      }),
    );
    const rows = renderFirstRows("t1", detail, { ...page, messages }, "/e1/t1").body;
    const drawn = [...rows.matchAll(/data-message-id="(m\d+)"/g)].map((m) => m[1]);
    expect(drawn).toEqual(["m31", "m32", "m33", "m34", "m35", "m36", "m37", "m39"]);
    // A newest message too large to draw: no rows, the data still goes out.
    const huge = renderFirstRows(
      "t1",
      detail,
      { ...page, messages: [message({ text: "x".repeat(200_000) })] },
      "/e1/t1",
    );
    expect(huge.body).toBe("");
    expect(JSON.parse(dataBlock(injectFirstRows(INDEX, huge)!)).page.messages).toHaveLength(1);
  });

  it("redraws a message whose text, status or version changed (rows are kept by id)", () => {
    const draw = (m: Partial<Message>) =>
      renderFirstRows("t1", detail, { ...page, messages: [message({ id: "c1", ...m })] }, "/e1/t1")
        .body;
    expect(draw({ text: "First words", status: "streaming" })).toContain("First words");
    const done = draw({ text: "First words, then more", status: "complete" });
    expect(done).toContain("First words, then more");
    expect(done).toContain('data-status="complete"');
    expect(draw({ text: "First words, then more", version: 2, versions: 2 })).toContain(
      'data-version="2"',
    );
    expect(draw({ text: "Edited" })).not.toContain("First words");
  });

  it("escapes every character HTML could read in the JSON", () => {
    expect(jsonForScriptElement({ a: "</script><!--&\u2028\u2029" })).toBe(
      '{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029"}',
    );
  });

  it("takes thread ids from the paths the web app routes to a thread, as index.html does", () => {
    const html = readFileSync(join(import.meta.dirname, "../../../web/index.html"), "utf8");
    // The same pattern as the prefetch script (apps/web/src/app/indexPrefetch.test.ts ties that
    // one to the router).
    expect(html).toContain("/^\\/[^/]+\\/([^/]+)\\/?$/.exec(location.pathname)");
    expect(threadIdOfPagePath("/env/thread-1")).toBe("thread-1");
    expect(threadIdOfPagePath("/env/a%20b/")).toBe("a b");
    expect(threadIdOfPagePath("/env")).toBeNull();
    expect(threadIdOfPagePath("/env/a/b")).toBeNull();
    expect(threadIdOfPagePath("/env/%E0%A4%A")).toBeNull();
    expect(threadIdOfPagePath("/env/%00")).toBeNull();
  });
});

describe("thread pages over HTTP", () => {
  let server: TestServer;
  let secured: TestServer;
  let webDist: string;
  let threadId: string;
  let environmentId: string;

  beforeAll(async () => {
    webDist = await makeTempDir("chat-first-rows-");
    await mkdir(webDist, { recursive: true });
    await writeFile(join(webDist, "index.html"), INDEX);
    const adapter = new RecordingAdapter(async (ctx) => {
      const writer = ctx.startMessage("answer");
      writer.append(HOSTILE);
      writer.complete();
    });
    server = await startTestServer({ adapter, webDist });
    const created = await server.post("/api/threads", { title: "First rows" });
    threadId = ((await created.json()) as Thread).id;
    environmentId = ((await server.getJson("/api/environment")) as { environmentId: string })
      .environmentId;
    expect((await server.post(`/api/threads/${threadId}/turns`, { input: HOSTILE })).status).toBe(
      201,
    );
    await waitFor(async () => {
      const detail = await server.getJson<ThreadDetail>(`/api/threads/${threadId}`);
      return detail.activeTurn === null ? true : undefined;
    });
    secured = await startTestServer({
      adapter: new RecordingAdapter(),
      webDist,
      authToken: "tok",
      dataDir: await makeTempDir(),
    });
  });

  afterAll(async () => {
    await server.close();
    await secured.close();
    await removeDir(server.dataDir);
    await removeDir(secured.dataDir);
    await removeDir(webDist);
  });

  it("serves a thread's page with its rows and the API's own detail and newest page", async () => {
    const res = await server.request(`/${environmentId}/${threadId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await res.text();
    const rows = rowsMarkup(html);
    expect(rows.match(/<article /g)).toHaveLength(2);
    expectInert(rows);
    expect(html).toContain('<meta name="first-rows" content="thread">');
    const data = JSON.parse(dataBlock(html)) as { detail: ThreadDetail; page: MessagePage };
    expect(data.detail).toEqual(await server.getJson(`/api/threads/${threadId}`));
    expect(data.page).toEqual(await server.getJson(`/api/threads/${threadId}/messages?limit=40`));
    expect(data.page.messages.map((m) => m.text)).toEqual([HOSTILE, HOSTILE]);
  });

  it("compresses a thread's page as the reader accepts, since it is made per request", async () => {
    const path = `/${environmentId}/${threadId}`;
    const plain = await (
      await server.request(path, { headers: { "accept-encoding": "identity" } })
    ).text();
    for (const [accept, encoding, decode] of [
      ["br", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const res = await rawRequest(`${server.url}${path}`, {
        headers: { host: new URL(server.url).host, "accept-encoding": accept },
      });
      expect(res.headers["content-encoding"]).toBe(encoding);
      expect(res.headers.vary).toBe("Accept-Encoding");
      expect(decode(res.body).toString("utf8")).toBe(plain);
    }
    expect(plain).toContain('id="first-rows-data"');
  });

  it("serves the plain page for other paths, unknown threads and readers without the token", async () => {
    for (const path of ["/", `/${environmentId}/no-such-thread`, `/${environmentId}`]) {
      const html = await (await server.request(path)).text();
      expect(html, path).toBe(INDEX);
    }
    const created = await secured.post(
      "/api/threads",
      { title: "Secret" },
      { authorization: "Bearer tok" },
    );
    const secret = ((await created.json()) as Thread).id;
    await secured.post(
      `/api/threads/${secret}/turns`,
      { input: "secret words" },
      {
        authorization: "Bearer tok",
      },
    );
    const path = `/${environmentId}/${secret}`;
    await waitFor(async () => {
      const page = await secured.request(`/api/threads/${secret}/messages`, {
        headers: { authorization: "Bearer tok" },
      });
      return ((await page.json()) as MessagePage).messages.length === 2 ? true : undefined;
    });
    expect(await (await secured.request(path)).text()).toBe(INDEX);
    const authorized = await (
      await secured.request(path, { headers: { authorization: "Bearer tok" } })
    ).text();
    expect(authorized).toContain("secret words");
    expect(authorized).toContain('id="first-rows-data"');
  });
});
