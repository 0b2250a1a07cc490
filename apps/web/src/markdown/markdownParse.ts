/**
 * Markdown source to a safe hast tree with source offsets (no React, no DOM). The pipeline
 * (remark-parse, remark-gfm, remark-rehype, react-markdown's post-processing) is
 * `parseSafeMarkdown` of `@app/markdown`, shared with the server, which reads a message's
 * rendered text from the same tree; this module adds the `data-md-start`/`data-md-end` stamps
 * the web needs for Markdown copy. `renderMarkdownTree` (markdownRender.ts) makes the React
 * elements; markdownRender.test.tsx pins the output to react-markdown's own, byte for byte.
 */
import { type MarkdownFlavor, parseSafeMarkdown } from "@app/markdown";
import type { Root } from "hast";
import { stampSourceOffsets } from "./rehypeSourceOffsets.ts";

export type { MarkdownFlavor } from "@app/markdown";

/**
 * Parses one Markdown block into hast: block elements carry `data-md-start`/`data-md-end`
 * (offsets into the whole message, `offset` being where the block starts), raw HTML becomes
 * text, and every URL attribute has passed the link policy (`markdownUrlTransform`).
 */
export function parseMarkdownBlock(source: string, offset: number, flavor: MarkdownFlavor): Root {
  const tree = parseSafeMarkdown(source, flavor);
  // The stamped tags are never added or replaced by the safe pass, so stamping after it is the same.
  stampSourceOffsets(tree, offset);
  return tree;
}
