/**
 * `@app/markdown`: chat Markdown to a safe hast tree (the web renders it with React) and to the
 * rendered text a reader sees (the server indexes and searches it). See README.md.
 */
export { CITATION_LINK_PROPERTY, chipCitationLinksInText } from "./citationLinksInText.ts";
export { type MarkdownFlavor, parseSafeMarkdown } from "./markdownParse.ts";
export * from "./promptTokens.ts";
export { remarkPromptTokens } from "./remarkPromptTokens.ts";
export { renderedTextOfMarkdown, renderedTextSteps } from "./renderedText.ts";
export {
  BLOCK_TAGS,
  EXCLUDED_TAGS,
  isCollapsibleCode,
  PREFORMATTED_TAGS,
  type WhiteSpaceMode,
} from "./renderedTextRules.ts";
export {
  type RenderedTextSegmentKind,
  RenderedTextWriter,
  type SegmentRecorder,
} from "./renderedTextWriter.ts";
export { classifyHref, type HrefKind, markdownUrlTransform } from "./safeHref.ts";
export { type MarkdownBlock, splitMarkdownBlocks } from "./splitMarkdownBlocks.ts";
export { AUTO_DIRECTION_TAGS, rehypeAutoDirection } from "./textDirection.ts";
export {
  findTextMatches,
  foldCase,
  MAX_RANGES_PER_MESSAGE,
  type TextMatches,
  type TextMatchOptions,
} from "./textMatches.ts";
