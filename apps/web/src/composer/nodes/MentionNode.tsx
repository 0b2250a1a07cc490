/**
 * `@path/to/file` as an atomic inline chip. The node stores only the path, as a flat NodeState
 * (its JSON is `{ type: "composer-mention", version: 1, path }`); its text content is the exact
 * source `@path`, so the prompt string (and copy) carries the mention unchanged. Written with
 * Lexical's `$config()`: type, clone and JSON come from the configuration.
 */
import { $create, $getState, $setState, createState, type LexicalNode } from "lexical";
import type { JSX } from "react";
import { ComposerChip } from "./ComposerChip.tsx";
import { InlineChipNode } from "./InlineChipNode.ts";

const pathState = createState("path", {
  parse: (value) => (typeof value === "string" ? value : ""),
});

/** A file mention chip; DOM host carries `data-composer-mention-chip="<path>"`. */
export class MentionNode extends InlineChipNode {
  override $config() {
    return this.config("composer-mention", {
      extends: InlineChipNode,
      stateConfigs: [{ stateConfig: pathState, flat: true }],
    });
  }

  /** The mentioned path, without the `@`. */
  getPath(): string {
    return $getState(this, pathState);
  }

  protected override chipAttribute(): readonly [string, string] {
    // Called while the DOM is built: read this version, not the latest.
    return ["data-composer-mention-chip", $getState(this, pathState, "direct")];
  }

  override getTextContent(): string {
    return `@${this.getPath()}`;
  }

  override decorate(): JSX.Element {
    const path = $getState(this, pathState, "direct");
    return <ComposerChip kind="mention" label={`@${path}`} title={path} />;
  }
}

/** Creates a mention chip for `path` (without the `@`). */
export function $createMentionNode(path: string): MentionNode {
  return $setState($create(MentionNode), pathState, path);
}

/** Type guard for {@link MentionNode}. */
export function $isMentionNode(node: LexicalNode | null | undefined): node is MentionNode {
  return node instanceof MentionNode;
}
