import type { ComponentPropsWithoutRef } from "react";
import type { ExtraProps } from "react-markdown";
import { CopyButton } from "../ui/CopyButton.tsx";

type HastLike = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: Record<string, unknown>;
  children?: HastLike[];
};

function textOf(node: HastLike | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
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

/**
 * The `pre` renderer: a fenced code block with a header (language, "Copy code" button). The
 * button sits outside `<pre>` so selecting or copying the code never includes its label. This
 * component is a stable module-level function, so a streaming code block updates in place.
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
  const text = textOf(code).replace(/\n$/, "");
  return (
    <div className="code-block">
      <div className="code-block__header" data-text-stream="skip">
        <span className="code-block__language">{language ?? "text"}</span>
        {/* Keyed by the code: a reused row shows another block, with a fresh "Copy" state. */}
        <CopyButton key={text} label="Copy code" getText={() => text} />
      </div>
      <pre {...rest}>{children}</pre>
    </div>
  );
}
