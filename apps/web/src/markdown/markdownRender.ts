/**
 * A parsed (safe) hast tree to React elements, with the chat components: react-markdown's last
 * step, with the same options.
 */
import type { Root } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import type { ReactElement } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import { chatMarkdownComponents } from "./chatMarkdownComponents.tsx";

/** Renders a tree made by `parseMarkdownBlock`. */
export function renderMarkdownTree(tree: Root): ReactElement {
  return toJsxRuntime(tree, {
    Fragment,
    components: chatMarkdownComponents,
    ignoreInvalidStyle: true,
    jsx,
    jsxs,
    passKeys: true,
    passNode: true,
  }) as ReactElement;
}
