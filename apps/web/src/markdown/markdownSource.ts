/**
 * Context that lets Markdown element renderers see the exact source they were parsed from
 * (react-markdown hands them hast nodes with positions relative to the rendered chunk).
 */
import { createContext, useContext } from "react";

/**
 * The chunk being rendered, where it starts in the whole message text, and whose message it is
 * (citation chips render only in user messages: model output can never forge one).
 */
export type MarkdownSourceValue = {
  source: string;
  offset: number;
  flavor?: "user" | "assistant";
};

/** Provided by each rendered Markdown block. */
export const MarkdownSourceContext = createContext<MarkdownSourceValue>({ source: "", offset: 0 });

/** The rendering context of the current block (its source, offset and flavor). */
export function useMarkdownSourceContext(): MarkdownSourceValue {
  return useContext(MarkdownSourceContext);
}

/** Minimal view of a hast node's position. */
export type PositionedNode = {
  position?: { start: { offset?: number }; end: { offset?: number } } | undefined;
};

/** The source text a node was parsed from, or null when positions are missing. */
export function useNodeSource(node: PositionedNode | undefined): string | null {
  const { source } = useContext(MarkdownSourceContext);
  const start = node?.position?.start.offset;
  const end = node?.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  return source.slice(start, end);
}
