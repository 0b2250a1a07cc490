import { looksLikeAssistantCitationLink, parseAssistantCitationLink } from "@app/citations";
import { classifyHref } from "@app/markdown";
import type { ComponentPropsWithoutRef } from "react";
import type { ExtraProps } from "react-markdown";
import { AssistantCitationChip } from "../citations/AssistantCitationChip.tsx";
import { useMarkdownSourceContext, useNodeSource } from "./markdownSource.ts";

/**
 * The `a` renderer for chat Markdown.
 * - in user messages, valid citation links render as read-only citation chips;
 * - in assistant messages, citation links stay plain text (their Markdown source): model output
 *   can print one, and it must never pass for the user's own citation;
 * - http/https/mailto links open in a new tab without an opener;
 * - a malformed citation link stays ordinary text: its Markdown source, byte for byte;
 * - anything else (javascript:, data:, relative, in-page `#` links) renders its label as plain
 *   text, so nothing unsafe is ever clickable.
 */
export function MarkdownLink({ href, children, node }: ComponentPropsWithoutRef<"a"> & ExtraProps) {
  const source = useNodeSource(node);
  const { flavor, offset } = useMarkdownSourceContext();
  const kind = classifyHref(href);
  if (kind === "citation" || (source !== null && looksLikeAssistantCitationLink(source))) {
    const parsed = source === null || flavor !== "user" ? null : parseAssistantCitationLink(source);
    if (parsed && source !== null) {
      const start = node?.position?.start.offset;
      const end = node?.position?.end.offset;
      return (
        <AssistantCitationChip
          citation={parsed.citation}
          source={source}
          sourceStart={start === undefined ? undefined : offset + start}
          sourceEnd={end === undefined ? undefined : offset + end}
        />
      );
    }
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
