/**
 * Markdown source to a safe hast tree (no React, no DOM): react-markdown's pipeline
 * (remark-parse, remark-gfm, remark-rehype, then its own post-processing) up to, not including,
 * the React elements. The web renders this tree (apps/web/src/markdown/markdownRender.ts, whose
 * test pins it to react-markdown's own output byte for byte); the server reads its rendered text
 * from the same tree (renderedText.ts), so both see one parse.
 *
 * Why one frozen processor per flavor instead of react-markdown's `Markdown` per block: it builds
 * a new processor (and new GFM syntax tables) on every call; reusing one renders a block about
 * 30% faster, which matters for the first screen of a long thread.
 */
import type { Root } from "hast";
import { urlAttributes } from "html-url-attributes";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { visit } from "unist-util-visit";
import { chipCitationLinksInText } from "./citationLinksInText.ts";
import { remarkPromptTokens } from "./remarkPromptTokens.ts";
import { markdownUrlTransform } from "./safeHref.ts";
import { setAutoDirection } from "./textDirection.ts";

/**
 * `assistant`: model output. `user`: a sent prompt, where `@path` mentions and `$skill` tokens
 * are shown as inline tokens like the composer's chips, and citation links as chips.
 */
export type MarkdownFlavor = "assistant" | "user";

// Raw HTML is kept as `raw` nodes here and turned into plain text below: never interpreted.
const REMARK_REHYPE_OPTIONS = { allowDangerousHtml: true };

const processors = {
  assistant: unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, REMARK_REHYPE_OPTIONS)
    .freeze(),
  user: unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkPromptTokens)
    .use(remarkRehype, REMARK_REHYPE_OPTIONS)
    .freeze(),
};

/**
 * Parses one Markdown block (as `splitMarkdownBlocks` cuts a message) into hast: raw HTML
 * becomes text, every URL attribute has passed {@link markdownUrlTransform}, and in user
 * messages every citation link becomes a chip link. Positions are offsets into `source`.
 */
export function parseSafeMarkdown(source: string, flavor: MarkdownFlavor): Root {
  const processor = processors[flavor];
  const tree = processor.runSync(processor.parse(source));
  makeSafe(tree);
  // After makeSafe, so links in raw HTML (now text) count too.
  if (flavor === "user") chipCitationLinksInText(tree, source);
  return tree;
}

/**
 * react-markdown's post-processing with `skipHtml: false` and our `urlTransform`; text blocks
 * get `dir="auto"` (textDirection.ts).
 */
function makeSafe(tree: Root): void {
  visit(tree, (node, index, parent) => {
    if (node.type === "raw" && parent && typeof index === "number") {
      parent.children[index] = { type: "text", value: node.value };
      return index;
    }
    if (node.type === "element") {
      setAutoDirection(node);
      for (const key in urlAttributes) {
        if (Object.hasOwn(urlAttributes, key) && Object.hasOwn(node.properties, key)) {
          const test = urlAttributes[key];
          if (test === null || test?.includes(node.tagName)) {
            node.properties[key] = markdownUrlTransform(String(node.properties[key] || ""), key);
          }
        }
      }
    }
    return undefined;
  });
}
