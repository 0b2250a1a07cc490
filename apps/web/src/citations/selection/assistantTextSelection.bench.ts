/**
 * Cost of the DOM side of citations on one long assistant message (jsdom; script time only, no
 * layout). jsdom's getComputedStyle is far slower than a browser's, so these are upper bounds.
 * Run with `pnpm exec vitest bench --run --config vitest.workspace.ts --project web apps/web/src/citations`.
 */
import { bench, describe } from "vitest";
import { buildRenderedTextStream } from "../../renderedText/renderedTextStream.ts";
import { resolveAssistantCitationRange } from "../navigation/resolveAssistantCitationRange.ts";
import { captureAssistantTextSelection } from "./assistantTextSelection.ts";

/** About 400 blocks (~40 KB of text): paragraphs with inline markup, lists, code, a table. */
function longMessageHtml(): string {
  const blocks: string[] = [];
  for (let i = 0; i < 100; i++) {
    blocks.push(
      `<p>Paragraph ${i} explains <strong>why</strong> the <a href="https://x.test">index</a> ` +
        `uses <code>btree_${i}</code>\nwith a soft break and more words to make it realistic.</p>`,
      `<ul>\n<li>first item ${i}</li>\n<li>second <em>item</em> ${i}</li>\n</ul>`,
      `<div class="code-block"><div data-text-stream="skip"><span>ts</span><button>Copy code</button></div>` +
        `<pre><code>function f${i}() {\n    return ${i};\n}\n</code></pre></div>`,
      `<table>\n<tbody>\n<tr>\n<td>k${i}</td>\n<td>v${i}</td>\n</tr>\n</tbody>\n</table>`,
    );
  }
  return blocks.join("\n");
}

document.body.innerHTML = `<div data-assistant-citation-source="m1">${longMessageHtml()}</div>`;
const root = document.querySelector("[data-assistant-citation-source]")!;
const ids = { environmentId: "env", threadId: "thread" };

const paragraphs = root.querySelectorAll("p");
const wholeMessage = document.createRange();
wholeMessage.setStart(paragraphs[0]!.firstChild!, 0);
wholeMessage.setEnd(paragraphs[paragraphs.length - 1]!.lastChild!, 10);
const lastParagraph = document.createRange();
lastParagraph.selectNodeContents(paragraphs[paragraphs.length - 1]!);

const capture = captureAssistantTextSelection(lastParagraph, ids);
if (capture.citation === null) throw new Error(`bench setup: ${capture.message}`);
const quote = capture.citation;
console.info(`rendered text: ${buildRenderedTextStream(root).text.length} UTF-16 units`);

describe("one long assistant message", () => {
  bench("buildRenderedTextStream", () => {
    buildRenderedTextStream(root);
  });

  bench("captureAssistantTextSelection (last paragraph)", () => {
    captureAssistantTextSelection(lastParagraph, ids);
  });

  bench("captureAssistantTextSelection (whole message, over the limit)", () => {
    captureAssistantTextSelection(wholeMessage, ids);
  });

  bench("resolveAssistantCitationRange (last paragraph)", () => {
    resolveAssistantCitationRange(root, quote);
  });
});
