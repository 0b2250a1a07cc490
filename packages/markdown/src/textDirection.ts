/**
 * Each block of running text is laid out in the direction of its own first strong character
 * (`dir="auto"`), as the composer lays out what is typed: a right-to-left paragraph, or one
 * mixing Arabic or Hebrew with English, reads the same after sending as before. Code blocks and
 * inline code stay left to right (the page's direction). The one attribute our safe tree adds to
 * react-markdown's output (the parity tests add it to their reference with the plugin below).
 */
import type { Element, Root } from "hast";
import { visit } from "unist-util-visit";

/** Elements that hold running text of their own. */
export const AUTO_DIRECTION_TAGS: ReadonlySet<string> = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "li",
  "blockquote",
  "td",
  "th",
]);

/** Gives `element` `dir="auto"` when it is a block of running text. */
export function setAutoDirection(element: Element): void {
  if (AUTO_DIRECTION_TAGS.has(element.tagName)) element.properties.dir = "auto";
}

/** The same as a rehype plugin (for a reference rendering through react-markdown). */
export function rehypeAutoDirection() {
  return (tree: Root) => {
    visit(tree, "element", (node: Element) => setAutoDirection(node));
  };
}
