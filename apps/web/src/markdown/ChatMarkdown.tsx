import { splitMarkdownBlocks } from "@app/markdown";
import { memo, useMemo } from "react";
import {
  cachedMarkdownBlock,
  type MarkdownFlavor,
  renderMarkdownBlock,
} from "./markdownBlockCache.ts";
import { MarkdownSourceContext, type MarkdownSourceValue } from "./markdownSource.ts";
import { streamingRenderableText } from "./streamingTableHold.ts";

export { chatMarkdownComponents } from "./chatMarkdownComponents.tsx";

type BlockProps = { source: string; offset: number; cache: boolean; flavor: MarkdownFlavor };

/** One top-level block; re-renders only when its own source changes. */
const MarkdownBlock = memo(function MarkdownBlock({ source, offset, cache, flavor }: BlockProps) {
  const context = useMemo<MarkdownSourceValue>(
    () => ({ source, offset, flavor }),
    [source, offset, flavor],
  );
  const element = useMemo(
    () =>
      cache
        ? cachedMarkdownBlock(source, offset, flavor)
        : renderMarkdownBlock(source, offset, flavor),
    [source, offset, cache, flavor],
  );
  return <MarkdownSourceContext.Provider value={context}>{element}</MarkdownSourceContext.Provider>;
});

/** Props for {@link ChatMarkdown}. */
export type ChatMarkdownProps = {
  /** The message's Markdown source, exactly as stored. */
  text: string;
  /**
   * True while the text is still growing: its last block is then rendered without entering the
   * shared parse cache (it changes with every chunk).
   */
  streaming?: boolean;
  /** "user" also shows `@path` mentions and `$skill` tokens as inline tokens (default "assistant"). */
  flavor?: MarkdownFlavor;
  className?: string;
};

/**
 * Renders chat Markdown (GFM) safely: no raw HTML, only http/https/mailto links, code blocks with
 * a "Copy code" button, scrollable tables, valid citation links in user messages as
 * read-only citation chips (in assistant output they stay plain text). The text is split
 * into top-level blocks so a streaming reply re-renders only the block that is growing, and
 * block elements carry `data-md-start`/`data-md-end` source offsets for Markdown copy.
 */
export const ChatMarkdown = memo(function ChatMarkdown({
  text,
  streaming = false,
  flavor = "assistant",
  className,
}: ChatMarkdownProps) {
  // While streaming, a table's first lines wait for its delimiter row (no raw-text flash).
  const shown = streaming ? streamingRenderableText(text) : text;
  const blocks = useMemo(() => splitMarkdownBlocks(shown), [shown]);
  return (
    <div className={className ? `chat-markdown ${className}` : "chat-markdown"}>
      {blocks.map((block, index) => (
        <MarkdownBlock
          // biome-ignore lint/suspicious/noArrayIndexKey: a block is its position in the message; a row reused for another message (virtual list recycling) then updates its blocks in place instead of remounting them; any block whose source or offset changes re-renders.
          key={index}
          source={block.source}
          offset={block.start}
          cache={!streaming || index < blocks.length - 1}
          flavor={flavor}
        />
      ))}
    </div>
  );
});
