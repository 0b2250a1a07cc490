/**
 * Server-rendered first rows (issue 33): the page of a thread URL (`/<environmentId>/<threadId>`,
 * the web app's thread route) carries the newest messages as static HTML, so they are on screen
 * before any script has run, and the newest page itself as an inert JSON block, so the app
 * starts from it without fetching it. The app (apps/web/src/app/firstRows.ts) removes the rows
 * the moment its own rows are in the document; `index.html`'s prefetch script skips the thread
 * requests when the page carries them.
 *
 * What the page gets:
 * - in `<head>`: `<meta name="first-rows">` (the prefetch script's signal) and the thread's title;
 * - before `#root`: `#first-rows`, a copy of the app shell (the same classes, so the same layout)
 *   holding the newest prompts, answers and errors that fit a budget, as the app draws them but
 *   with nothing interactive: no links but safe http/https/mailto ones, citation chips as inert
 *   labels, copy buttons as hidden placeholders;
 * - after `#root`: `<script type="application/json" id="first-rows-data">` with
 *   `{ threadId, detail, page }`, the very answers of `GET /api/threads/:id` and
 *   `GET .../messages?limit=` (the detail read first, so the page is never older than its
 *   `lastEventId`). Every `<`, `>` and `&` in it is written as a `\u` escape, so no content can
 *   close the element or open a comment; the browser never runs a data block, so the CSP stays
 *   as strict as it is.
 *
 * Safety: model output reaches the HTML only through `hast-util-to-html` (firstRowsMarkdown.ts
 * and the row markup below), which escapes every text and attribute value.
 */
import type { Message, MessagePage, ThreadDetail } from "@app/protocol";
import type { Element, ElementContent } from "hast";
import { toHtml } from "hast-util-to-html";
import { inertCopyButton, markdownToStaticTree } from "./firstRowsMarkdown.ts";

/** Page size of the embedded newest page: the web's `NEWEST_PAGE_PREFETCH_LIMIT`. */
export const FIRST_ROWS_PAGE_LIMIT = 40;
/** At most this many messages are drawn (newest first), enough to fill a tall screen. */
const MAX_ROWS = 8;
/** Drawing stops once this much Markdown (UTF-16 units) is drawn, and skips longer messages. */
const MAX_ROWS_TEXT = 12_000;

/** Thread id of a path the web app routes to a thread (`/<environmentId>/<threadId>`), else null. */
export function threadIdOfPagePath(pathname: string): string | null {
  // The same pattern as index.html's prefetch script and the router's thread route.
  const match = /^\/[^/]+\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    const id = decodeURIComponent(match[1]!);
    return id === "" || id.includes("\0") ? null : id;
  } catch {
    return null;
  }
}

const text = (value: string): ElementContent => ({ type: "text", value });

function element(
  tagName: string,
  properties: Element["properties"],
  children: ElementContent[] = [],
): Element {
  return { type: "element", tagName, properties, children };
}

/** The message article's accessible name, as the app's `speakerLabel`. */
function speakerLabel(message: Message): string {
  if (message.role === "user") return "You";
  if (message.kind === "progress") return "Assistant, progress update";
  if (message.kind === "error") return "Assistant, error";
  return "Assistant";
}

/** The newest messages to draw, oldest first: prompts, answers and errors within the budget. */
function rowsToDraw(messages: readonly Message[]): Message[] {
  const rows: Message[] = [];
  let budget = MAX_ROWS_TEXT;
  for (let i = messages.length - 1; i >= 0 && rows.length < MAX_ROWS; i--) {
    const message = messages[i]!;
    // Progress updates sit folded behind their turn's toggle; empty ones show a typing marker.
    if (message.kind === "progress" || message.text === "") continue;
    if (message.text.length > budget) break;
    budget -= message.text.length;
    rows.unshift(message);
  }
  return rows;
}

/**
 * The web's fold rule (apps/web/src/timeline/messageFold.ts, `isLongMessage`): a message
 * estimated at more than 25 rendered lines shows folded. Kept in step by hand: a drift only
 * costs a row's height when the app replaces the first rows.
 */
function isLongMessage(role: Message["role"], text: string): boolean {
  const limit = 25;
  const charsPerLine = role === "user" ? 75 : 90;
  const fence = /^ {0,3}(`{3,}|~{3,})/;
  let lines = 0;
  let inFence = false;
  let start = 0;
  while (start <= text.length && lines <= limit) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (fence.test(text.slice(start, Math.min(end, start + 16)))) {
      inFence = !inFence;
      lines += 1;
    } else if (inFence) {
      lines += 1;
    } else if (end > start && text.slice(start, end).trim() !== "") {
      lines += Math.ceil((end - start) / charsPerLine);
    }
    start = end + 1;
  }
  return lines > limit;
}

/**
 * Rows already drawn, by message id (LRU): a page is drawn on every open of its thread, and a
 * message's row changes only with the fields compared in {@link rowHtml}, so reopening a
 * thread parses no Markdown again. Bounded by the characters held.
 */
const drawnRows = new Map<string, { message: Message; html: string }>();
const DRAWN_ROWS_MAX_CHARS = 4_000_000;
let drawnRowsChars = 0;

function sameRow(a: Message, b: Message): boolean {
  return (
    a.text === b.text &&
    a.role === b.role &&
    a.kind === b.kind &&
    a.status === b.status &&
    a.turnId === b.turnId &&
    a.version === b.version &&
    a.versions === b.versions
  );
}

/** A message's row as HTML (its own serialization: the Markdown is never raw HTML). */
function rowHtml(message: Message): string {
  const drawn = drawnRows.get(message.id);
  if (drawn !== undefined) {
    drawnRows.delete(message.id);
    if (sameRow(drawn.message, message)) {
      drawnRows.set(message.id, drawn);
      return drawn.html;
    }
    drawnRowsChars -= drawn.html.length;
  }
  const html = toHtml(row(message));
  drawnRows.set(message.id, { message, html });
  drawnRowsChars += html.length;
  for (const [id, old] of drawnRows) {
    if (drawnRowsChars <= DRAWN_ROWS_MAX_CHARS) break;
    drawnRows.delete(id);
    drawnRowsChars -= old.html.length;
  }
  return html;
}

function row(message: Message): Element {
  const long = message.status !== "streaming" && isLongMessage(message.role, message.text);
  const markdown = markdownToStaticTree(message.text, message.role);
  if (long) (markdown.properties.className as string[]).push("chat-markdown--folded");
  const properties: Element["properties"] = {
    className: ["message", `message--${message.role}`, `message--${message.kind}`],
    dataMessageId: message.id,
    dataRole: message.role,
    dataKind: message.kind,
    dataTurnId: message.turnId,
    dataStatus: message.status,
    ariaLabel: speakerLabel(message),
    tabIndex: -1,
  };
  if (long) properties.dataLongMessage = "folded";
  if (message.version !== undefined) properties.dataVersion = message.version;
  if (message.versions !== undefined) properties.dataVersions = message.versions;
  return element("article", properties, [
    ...(message.kind === "error"
      ? [
          element("div", { className: ["message__error-title"], dataTextStream: "skip" }, [
            text("The assistant hit an error"),
          ]),
        ]
      : []),
    // No `data-assistant-citation-source`: the app's citation code looks sources up in the
    // whole document, and these rows are only a picture of the app's until it has its own.
    element("div", { className: ["message__body"] }, [markdown]),
    ...(long
      ? [
          element("div", { className: ["message__fold-toggle"], dataTextStream: "skip" }, [
            element(
              "button",
              { type: "button", className: ["link-button"], tabIndex: -1, ariaHidden: "true" },
              [text("Show more")],
            ),
          ]),
        ]
      : []),
    element("div", { className: ["message__actions"], dataTextStream: "skip" }, [
      inertCopyButton(),
    ]),
  ]);
}

/** `JSON.stringify` that no HTML parser state can leave: `<`, `>`, `&`, U+2028/9 as escapes. */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** The pieces a thread page gets (see the module comment). */
export type FirstRowsParts = { head: string; title: string; body: string; data: string };

/** Renders the first rows of `detail` + `page` (the newest page) for the page at `pathname`. */
export function renderFirstRows(
  threadId: string,
  detail: ThreadDetail,
  page: MessagePage,
  pathname: string,
): FirstRowsParts {
  const thread = detail.thread;
  const data = `<script type="application/json" id="first-rows-data">${jsonForScriptElement({ threadId, detail, page })}</script>`;
  const head = '<meta name="first-rows" content="thread">';
  const title = toHtml(element("title", {}, [text(`${thread.title} · Chat`)]));
  const rows = rowsToDraw(page.messages);
  // Nothing to draw (an empty thread, a huge newest message): the data alone still saves the requests.
  if (rows.length === 0) return { head, title, body: "", data };
  const header = element("header", { className: ["thread-header"] }, [
    element("a", { href: "/", className: ["thread-header__back"] }, [
      element("span", { ariaHidden: "true" }, [text("←")]),
      text(" Threads"),
    ]),
    element("h1", { className: ["thread-header__title"] }, [text(thread.title)]),
    ...(thread.branchName
      ? [
          element("span", { className: ["thread-header__branch"], title: "Branch name" }, [
            text(thread.branchName),
          ]),
        ]
      : []),
    element(
      "a",
      {
        className: ["button", "thread-header__export"],
        href: `/api/threads/${encodeURIComponent(thread.id)}/export.md`,
        download: "export.md",
      },
      [text("Export as Markdown")],
    ),
  ]);
  // The composer's placeholder (apps/web/src/thread/ThreadComposer.tsx), for the same layout.
  const composer = element("div", { className: ["composer-placeholder-box"], ariaHidden: "true" }, [
    element("div", { className: ["composer-placeholder-box__input"] }),
    element("div", { className: ["composer-placeholder-box__actions"] }, [
      element("span", { className: ["composer-placeholder-box__button"] }, [text("Send")]),
    ]),
  ]);
  const shell = element(
    "div",
    { id: "first-rows", className: ["first-rows"], dataThreadPath: pathname },
    [
      element("div", { className: ["app"], dataView: "thread" }, [
        element("aside", { className: ["sidebar"] }),
        element("main", { className: ["app__main"] }, [
          element("section", { className: ["thread-view"], ariaLabel: thread.title }, [
            header,
            element("div", { className: ["thread-view__body"] }, [
              element("section", { className: ["timeline"], ariaLabel: "Messages" }, [
                element(
                  "div",
                  { className: ["first-rows__scroller"] },
                  // Rows serialized on their own (escaped); only they go in raw.
                  rows.map((message) => ({ type: "raw", value: rowHtml(message) })),
                ),
              ]),
            ]),
            element("div", { className: ["thread-view__composer"] }, [composer]),
          ]),
        ]),
      ]),
    ],
  );
  return { head, title, body: toHtml(shell, { allowDangerousHtml: true }), data };
}

/**
 * `index.html` with the parts added: the marker after `<meta charset>`, the title in place of
 * the page's, the rows before `<div id="root"></div>` and the data after it. Null when the page
 * lacks one of those places (then it is served as it is).
 */
export function injectFirstRows(indexHtml: string, parts: FirstRowsParts): string | null {
  const charset = /<meta charset="[^"]*"\s*\/?>/i.exec(indexHtml);
  const root = '<div id="root"></div>';
  const rootAt = indexHtml.indexOf(root);
  if (!charset || rootAt === -1) return null;
  const afterCharset = charset.index + charset[0].length;
  const head =
    indexHtml.slice(0, afterCharset) + parts.head + indexHtml.slice(afterCharset, rootAt);
  return (
    head.replace(/<title>[^<]*<\/title>/i, () => parts.title) +
    parts.body +
    root +
    parts.data +
    indexHtml.slice(rootAt + root.length)
  );
}
