/**
 * A rehype plugin that stamps block elements with the Markdown source range they came from
 * (`data-md-start` / `data-md-end`, UTF-16 offsets into the whole message text). Copy uses
 * these to put the original Markdown on the clipboard when whole blocks are selected.
 */

/** The hast node fields this plugin touches (structural, so no hast types package is needed). */
type HastNode = {
  type: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  position?: { start: { offset?: number }; end: { offset?: number } };
  children?: HastNode[];
};

/** Elements whose source range is meaningful to copy as a unit. */
export const SOURCE_MAPPED_TAGS: ReadonlySet<string> = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "blockquote",
  "pre",
  "table",
  "tr",
  "hr",
]);

/** Options: `offset` is where the rendered chunk starts in the full message text. */
export type SourceOffsetOptions = { offset: number };

/** Stamps `node` and its descendants in place (the plugin's transform, usable without one). */
export function stampSourceOffsets(node: HastNode, offset: number): void {
  if (node.type === "element" && node.tagName && SOURCE_MAPPED_TAGS.has(node.tagName)) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start !== undefined && end !== undefined) {
      node.properties ??= {};
      node.properties.dataMdStart = String(start + offset);
      node.properties.dataMdEnd = String(end + offset);
    }
  }
  if (node.children) for (const child of node.children) stampSourceOffsets(child, offset);
}

/** The plugin (`[rehypeSourceOffsets, { offset }]` in `rehypePlugins`). */
export function rehypeSourceOffsets(options: SourceOffsetOptions) {
  return (tree: HastNode) => stampSourceOffsets(tree, options.offset);
}
