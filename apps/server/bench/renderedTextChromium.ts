/**
 * Real-Chromium check of the search index's text (issue 23): each message of a corpus (code,
 * tables, links, images, chips, raw HTML, footnotes, task lists, soft and hard breaks, Unicode),
 * as user and as assistant, is rendered by the built web app in Debian's Chromium, and the web's
 * own rendered-text stream of its body must equal `renderedTextOfMarkdown` of `@app/markdown`.
 * The jsdom parity test (apps/web/src/markdown/renderedTextParity.dom.test.tsx) runs in the
 * suite; this one needs a browser and the built app, so it is run by hand:
 *
 *   pnpm --filter @app/web build && node --import tsx apps/server/bench/renderedTextChromium.ts
 *
 * Prints each mismatch and a count; exits 1 on any.
 */
import { join } from "node:path";
import { serializeAssistantCitation } from "@app/citations";
import { renderedTextOfMarkdown } from "@app/markdown";
import { chromium } from "@playwright/test";
import { build } from "esbuild";
import { startServer } from "../src/main.ts";
import { openStore } from "../src/storage/openStore.ts";
import { makeTempDir, RecordingAdapter, removeDir } from "../src/testing/harness.ts";

const cite = (text: string, comment?: string) =>
  serializeAssistantCitation({
    version: 1,
    environmentId: "env-1",
    threadId: "thread-1",
    messageId: "message-1",
    text,
    start: 0,
    end: text.length,
    prefix: "",
    suffix: "",
    ...(comment ? { comment } : {}),
  });
const CHIP = cite("the quoted   words");
const CHIP2 = cite("a quote", "  why it matters ");
const HREF = CHIP.slice(CHIP.indexOf("(") + 1, -1);
const CORPUS = [
  "Plain words.",
  "# Title\n\nSome **bold**, _em_, ~~gone~~ and `code`.",
  "- one\n- two\n  - nested\n\n1. first\n2. second",
  "- loose\n\n- list\n\n  second paragraph",
  "```ts\nconst p50 = 1 < 2 && 3 > 2;\n\n  indented();\n```\n\nAfter.",
  "    indented code\n    block",
  "| a | b |\n| --- | ---: |\n| 1 | 2 |\n| | x |\n| `useThread` | **bold** cell |",
  "> quote\n> more\n>> nested",
  "<script>alert(1)</script> and <b>bold</b> and <!-- comment -->",
  "[safe](https://example.com) [js](javascript:alert(1)) [mail](mailto:a@b.c) [rel](/x)",
  "![img](https://example.com/a.png) ![bad](javascript:x) ![none]() ![  spaced  alt  ](https://x.y/i.png)",
  "www.example.com and https://auto.link/path?q=1",
  `See ${CHIP} here and ${CHIP2}.`,
  `In code: \`${CHIP}\`\n\n\`\`\`\n${CHIP}\n\`\`\``,
  `![Assistant quote](${HREF}) and \\${CHIP} and <b>${CHIP}</b>`,
  "Read @src/app.ts and $skill-name, but not `@code` or [@link](https://x.y)",
  "Footnote[^1]\n\n[^1]: The note.",
  "- [ ] task\n- [x] done",
  "Line one\nline two  \nline three\\\nfour\n   five   \n\tsix",
  "&amp; &copy; &#x27; &notanentity; &nbsp;x",
  "***\n\n---\n\nSetext\n===",
  "Emoji 🙂 and CJK 数据 and combining e\u0301 and tabs\tand\u00a0nbsp",
  "para one\n\n\n\npara two\n\n- item\n\n```\ncode\n```\n\n# head",
  "```python\ndef f(x):\n    return x  # comment\n```",
  `${"Long line of a folded message.\n".repeat(40)}\nend`,
];

const dataDir = await makeTempDir("s-chromium-parity-");
const store = await openStore({ databaseUrl: null, pgPoolSize: 1, dataDir });
const threads: string[] = [];
const now = "2026-01-01T00:00:00.000Z";
await store.transaction(async (tx) => {
  for (const [i, text] of CORPUS.entries()) {
    const threadId = `p${i}`;
    threads.push(threadId);
    await tx.createThread({ id: threadId, title: `Parity ${i}`, now });
    await tx.insertTurnWithPrompt({
      threadId,
      turnId: `t${i}`,
      messageId: `u${i}`,
      text,
      providerInput: "x",
      now,
    });
    await tx.insertAssistantMessage({
      id: `a${i}`,
      threadId,
      turnId: `t${i}`,
      kind: "answer",
      text,
      status: "complete",
      now,
    });
    await tx.updateTurn({ id: `t${i}`, status: "completed", completedAt: now });
  }
});
const environmentId = store.environmentId;
await store.close();
const server = await startServer({
  env: {},
  host: "127.0.0.1",
  port: 0,
  dataDir,
  webDist: join(import.meta.dirname, "../../web/dist"),
  logLevel: "silent",
  adapter: new RecordingAdapter(),
  databaseUrl: null,
});
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const page = await (await browser.newContext({ bypassCSP: true })).newPage();
// The web's stream module, bundled for the page (the app does not expose it).
const bundled = await build({
  entryPoints: [join(import.meta.dirname, "../../web/src/renderedText/renderedTextStream.ts")],
  bundle: true,
  format: "iife",
  globalName: "RTS",
  write: false,
});
const rts = bundled.outputFiles[0]!.text;
let failures = 0;
for (const [i, text] of CORPUS.entries()) {
  await page.goto(`${server.url}/${environmentId}/${threads[i]}`);
  await page.waitForSelector(`[data-message-id="a${i}"] .message__body`);
  // Code highlighting arrives in idle time; it keeps the text, but wait for it all the same.
  await page.waitForTimeout(300);
  // (Expressions as strings: this package compiles without the DOM's types.)
  if (!(await page.evaluate("typeof RTS !== 'undefined'"))) {
    await page.addScriptTag({ content: rts });
  }
  for (const [id, role] of [
    [`u${i}`, "user"],
    [`a${i}`, "assistant"],
  ] as const) {
    const body = JSON.stringify(`[data-message-id="${id}"] .message__body`);
    const dom = await page.evaluate<string>(
      `RTS.buildRenderedTextStream(document.querySelector(${body})).text`,
    );
    const server = renderedTextOfMarkdown(text, role);
    if (dom !== server) {
      failures++;
      console.log(
        `MISMATCH ${id} (${role}) ${JSON.stringify(text).slice(0, 80)}\n  chromium: ${JSON.stringify(dom)}\n  server:   ${JSON.stringify(server)}`,
      );
    }
  }
}
console.log(`${CORPUS.length * 2} messages compared, ${failures} mismatches`);
await browser.close();
await server.close();
await removeDir(dataDir);
process.exitCode = failures === 0 ? 0 : 1;
