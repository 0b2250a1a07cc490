/**
 * Markdown source to a safe hast tree (no React, no DOM). This is react-markdown's pipeline
 * (remark-parse, remark-gfm, remark-rehype, then its own post-processing) split in two:
 * {@link parseMarkdownBlock} here and `renderMarkdownTree` (markdownRender.ts) for the React
 * elements; markdownRender.test.tsx pins the output to react-markdown's own, byte for byte.
 *
 * Why not call react-markdown's `Markdown` per block: it builds a new processor (and new GFM
 * syntax tables) on every call. Reusing one frozen processor per flavor renders a block about
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
import { stampSourceOffsets } from "./rehypeSourceOffsets.ts";
import { remarkPromptTokens } from "./remarkPromptTokens.ts";
import { markdownUrlTransform } from "./safeHref.ts";

/**
 * `assistant`: model output. `user`: a sent prompt, where `@path` mentions and `$skill` tokens
 * are shown as inline tokens like the composer's chips.
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
 * Parses one Markdown block into hast: block elements carry `data-md-start`/`data-md-end`
 * (offsets into the whole message, `offset` being where the block starts), raw HTML becomes
 * text, and every URL attribute has passed {@link markdownUrlTransform}.
 */
export function parseMarkdownBlock(source: string, offset: number, flavor: MarkdownFlavor): Root {
  const processor = processors[flavor];
  const tree = processor.runSync(processor.parse(source));
  stampSourceOffsets(tree, offset);
  makeSafe(tree);
  // After makeSafe, so links in raw HTML (now text) count too.
  if (flavor === "user") chipCitationLinksInText(tree, source);
  return tree;
}

/** react-markdown's post-processing with `skipHtml: false` and our `urlTransform`. */
function makeSafe(tree: Root): void {
  visit(tree, (node, index, parent) => {
    if (node.type === "raw" && parent && typeof index === "number") {
      parent.children[index] = { type: "text", value: node.value };
      return index;
    }
    if (node.type === "element") {
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
