/**
 * A remark plugin for user messages: `@path` file mentions and `$skill` tokens in ordinary text
 * become inline token spans (`span.prompt-token[data-prompt-token="mention|skill"]`), using the
 * composer's tokenizer so sent messages show exactly the tokens the composer showed as chips.
 * Text inside links and code is left alone. The token text itself is unchanged.
 */
import { tokenizePrompt } from "./promptTokens.ts";

/** The mdast fields this plugin reads and writes (structural, no mdast types package needed). */
type MdNode = {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
};

const SKIP_INSIDE = new Set(["link", "linkReference", "inlineCode", "code", "html", "definition"]);

function tokenNode(kind: "mention" | "skill", text: string): MdNode {
  return {
    type: "promptToken",
    data: {
      hName: "span",
      hProperties: { className: ["prompt-token", `prompt-token--${kind}`], dataPromptToken: kind },
    },
    children: [{ type: "text", value: text }],
  };
}

function splitText(node: MdNode, prevChar: string): MdNode[] {
  const tokens = tokenizePrompt(node.value ?? "", { prevChar });
  if (!tokens.some((t) => t.kind === "mention" || t.kind === "skill")) return [node];
  const out: MdNode[] = [];
  for (const token of tokens) {
    if (token.kind === "mention" || token.kind === "skill")
      out.push(tokenNode(token.kind, token.text));
    else if (out.at(-1)?.type === "text") out[out.length - 1]!.value += token.text;
    else out.push({ type: "text", value: token.text });
  }
  return out;
}

function lastChar(node: MdNode | undefined): string {
  if (!node) return "";
  if (typeof node.value === "string") return node.value.slice(-1);
  return lastChar(node.children?.at(-1));
}

function walk(parent: MdNode): void {
  if (!parent.children) return;
  const next: MdNode[] = [];
  let previous: MdNode | undefined;
  for (const child of parent.children) {
    if (child.type === "text") next.push(...splitText(child, lastChar(previous)));
    else {
      if (!SKIP_INSIDE.has(child.type)) walk(child);
      next.push(child);
    }
    previous = child;
  }
  parent.children = next;
}

/** The plugin (`remarkPlugins: [remarkGfm, remarkPromptTokens]`). */
export function remarkPromptTokens() {
  return (tree: MdNode) => walk(tree);
}
