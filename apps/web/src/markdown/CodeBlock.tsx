import { CITATION_LINK_PROPERTY } from "@app/markdown";
import type { ElementContent } from "hast";
import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import {
  type ComponentPropsWithoutRef,
  type ReactNode,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import type { ExtraProps } from "react-markdown";
import { CopyButton } from "../ui/CopyButton.tsx";
import {
  highlightCode,
  highlightLanguageOf,
  isHighlightLanguageReady,
  requestHighlightLanguage,
  subscribeHighlightLanguages,
} from "./codeHighlight.ts";

type HastLike = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastLike[];
};

/** The code's text; a citation chip inside it (a user's message) counts as its whole link. */
function textOf(node: HastLike | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  const link = node.properties?.[CITATION_LINK_PROPERTY];
  if (typeof link === "string") return link;
  return (node.children ?? []).map(textOf).join("");
}

function holdsChip(node: HastLike | undefined): boolean {
  if (!node) return false;
  if (typeof node.properties?.[CITATION_LINK_PROPERTY] === "string") return true;
  return (node.children ?? []).some(holdsChip);
}

function languageOf(code: HastLike | undefined): string | null {
  const className = code?.properties?.className;
  const classes = Array.isArray(className) ? className : [];
  for (const name of classes) {
    if (typeof name === "string" && name.startsWith("language-"))
      return name.slice("language-".length);
  }
  return null;
}

function classNameOf(code: HastLike | undefined): string | undefined {
  const className = code?.properties?.className;
  return Array.isArray(className) ? className.join(" ") : undefined;
}

const neverReady = () => false;

/**
 * React elements per highlighted tree. `highlightCode` returns the same (cached) tree for the
 * same code, so a row scrolling back in reuses its elements instead of converting again.
 */
const elementsOf = new WeakMap<ElementContent[], ReactNode>();

function toElements(children: ElementContent[]): ReactNode {
  let elements = elementsOf.get(children);
  if (elements === undefined) {
    elements = toJsxRuntime({ type: "root", children }, { Fragment, jsx, jsxs });
    elementsOf.set(children, elements);
  }
  return elements;
}

/**
 * The code's highlighted elements once its grammar is loaded (asked for in idle time on first
 * use), else null. Re-renders when a grammar arrives.
 */
function useHighlightedCode(language: string | null, code: string): ReactNode | null {
  const ready = useSyncExternalStore(
    subscribeHighlightLanguages,
    language === null ? neverReady : () => isHighlightLanguageReady(language),
    neverReady,
  );
  useEffect(() => {
    if (language !== null && !ready) requestHighlightLanguage(language);
  }, [language, ready]);
  return useMemo(() => {
    if (!ready || language === null) return null;
    const children = highlightCode(language, code);
    return children === null ? null : toElements(children);
  }, [ready, language, code]);
}

/**
 * The `pre` renderer: a fenced code block with a header (language, "Copy code" button). The
 * button sits outside `<pre>` so selecting or copying the code never includes its label. This
 * component is a stable module-level function, so a streaming code block updates in place.
 *
 * Once the language's grammar is loaded the code is shown highlighted: the same text in the same
 * order, only wrapped in spans, so citations into code capture and resolve the same text.
 */
export function CodeBlock({
  node,
  children,
  ...rest
}: ComponentPropsWithoutRef<"pre"> & ExtraProps) {
  const hast = node as HastLike | undefined;
  const code = hast?.children?.find(
    (child) => child.type === "element" && child.tagName === "code",
  );
  const language = languageOf(code);
  const source = textOf(code);
  const text = source.replace(/\n$/, "");
  // Code holding a citation chip stays unhighlighted: highlighting works on plain text only.
  const highlighted = useHighlightedCode(
    holdsChip(code) ? null : highlightLanguageOf(language),
    source,
  );
  return (
    <div className="code-block">
      <div className="code-block__header" data-text-stream="skip">
        <span className="code-block__language">{language ?? "text"}</span>
        {/* Keyed by the code: a reused row shows another block, with a fresh "Copy" state. */}
        <CopyButton key={text} label="Copy code" getText={() => text} />
      </div>
      <pre {...rest}>
        {highlighted === null ? (
          children
        ) : (
          <code className={classNameOf(code)} data-highlighted="">
            {highlighted}
          </code>
        )}
      </pre>
    </div>
  );
}
