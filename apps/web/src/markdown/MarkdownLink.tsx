import type { ComponentPropsWithoutRef } from "react";
import type { ExtraProps } from "react-markdown";
import { AssistantCitationLabel } from "./AssistantCitationLabel.tsx";
import { citationFromLinkSource } from "./citationLink.ts";
import { useNodeSource } from "./markdownSource.ts";
import { classifyHref } from "./safeHref.ts";

/**
 * The `a` renderer for chat Markdown, and the extension point for citation chips.
 * - valid citation links render as a read-only citation label;
 * - http/https/mailto links open in a new tab without an opener;
 * - a malformed citation link stays ordinary text: its Markdown source, byte for byte;
 * - anything else (javascript:, data:, relative, in-page `#` links) renders its label as plain
 *   text, so nothing unsafe is ever clickable.
 */
export function MarkdownLink({ href, children, node }: ComponentPropsWithoutRef<"a"> & ExtraProps) {
  const source = useNodeSource(node);
  const kind = classifyHref(href);
  if (kind === "citation" || source?.startsWith("[Assistant quote](t3-citation:")) {
    const parsed = source === null ? null : citationFromLinkSource(source);
    if (parsed) return <AssistantCitationLabel citation={parsed.citation} href={parsed.href} />;
    return <span className="md-link-text">{source ?? children}</span>;
  }
  if (kind === "safe") {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  return <span className="md-link-text">{children}</span>;
}
