import { type ComponentPropsWithoutRef, memo, useMemo } from "react";
import Markdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./CodeBlock.tsx";
import { MarkdownLink } from "./MarkdownLink.tsx";
import { MarkdownSourceContext, type MarkdownSourceValue } from "./markdownSource.ts";
import { rehypeSourceOffsets } from "./rehypeSourceOffsets.ts";
import { markdownUrlTransform } from "./safeHref.ts";
import { splitMarkdownBlocks } from "./splitMarkdownBlocks.ts";

function MarkdownTable({ node: _node, ...props }: ComponentPropsWithoutRef<"table"> & ExtraProps) {
  // Wide tables scroll on their own instead of widening the message.
  return (
    <div className="md-table-scroll">
      <table {...props} />
    </div>
  );
}

function MarkdownImage({ src, alt }: ComponentPropsWithoutRef<"img"> & ExtraProps) {
  // Remote images are never loaded from model output (tracking pixels, layout jumps): show a link.
  const label = `Image: ${alt?.trim() || "untitled"}`;
  if (typeof src === "string" && src !== "") {
    return (
      <a className="md-image-link" href={src} target="_blank" rel="noopener noreferrer">
        {label}
      </a>
    );
  }
  return <span className="md-image-link">{label}</span>;
}

/** Element overrides shared by every chat message; module-level so identities never change. */
export const chatMarkdownComponents: Components = {
  a: MarkdownLink,
  pre: CodeBlock,
  table: MarkdownTable,
  img: MarkdownImage,
};

const remarkPlugins: Options["remarkPlugins"] = [remarkGfm];

type BlockProps = { source: string; offset: number };

/** One top-level block; re-renders only when its own source changes. */
const MarkdownBlock = memo(function MarkdownBlock({ source, offset }: BlockProps) {
  const context = useMemo<MarkdownSourceValue>(() => ({ source, offset }), [source, offset]);
  const rehypePlugins = useMemo<Options["rehypePlugins"]>(
    () => [[rehypeSourceOffsets, { offset }]],
    [offset],
  );
  return (
    <MarkdownSourceContext.Provider value={context}>
      <Markdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={chatMarkdownComponents}
        urlTransform={markdownUrlTransform}
        // Raw HTML is never interpreted: react-markdown (without rehype-raw) shows it as text.
        skipHtml={false}
      >
        {source}
      </Markdown>
    </MarkdownSourceContext.Provider>
  );
});

/** Props for {@link ChatMarkdown}. */
export type ChatMarkdownProps = {
  /** The message's Markdown source, exactly as stored. */
  text: string;
  className?: string;
};

/**
 * Renders chat Markdown (GFM) safely: no raw HTML, only http/https/mailto links, code blocks with
 * a "Copy code" button, scrollable tables, citation links as read-only labels. The text is split
 * into top-level blocks so a streaming reply re-renders only the block that is growing, and
 * block elements carry `data-md-start`/`data-md-end` source offsets for Markdown copy.
 */
export const ChatMarkdown = memo(function ChatMarkdown({ text, className }: ChatMarkdownProps) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  return (
    <div className={className ? `chat-markdown ${className}` : "chat-markdown"}>
      {blocks.map((block) => (
        <MarkdownBlock key={block.start} source={block.source} offset={block.start} />
      ))}
    </div>
  );
});
