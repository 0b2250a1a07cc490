import type { ComponentPropsWithoutRef } from "react";
import type { Components, ExtraProps } from "react-markdown";
import { CodeBlock } from "./CodeBlock.tsx";
import { MarkdownLink } from "./MarkdownLink.tsx";

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
