/**
 * `@path/to/file` as an atomic inline chip. The node stores only the path; its text content is
 * the exact source `@path`, so the prompt string (and copy) carries the mention unchanged.
 */
import {
  $applyNodeReplacement,
  type LexicalNode,
  type NodeKey,
  type SerializedLexicalNode,
  type Spread,
} from "lexical";
import type { JSX } from "react";
import { ComposerChip } from "./ComposerChip.tsx";
import { InlineChipNode } from "./InlineChipNode.ts";

/** JSON form of a {@link MentionNode}. */
export type SerializedMentionNode = Spread<{ path: string }, SerializedLexicalNode>;

/** A file mention chip; DOM host carries `data-composer-mention-chip="<path>"`. */
export class MentionNode extends InlineChipNode {
  __path: string;

  static override getType(): string {
    return "composer-mention";
  }

  static override clone(node: MentionNode): MentionNode {
    return new MentionNode(node.__path, node.__key);
  }

  static override importJSON(json: SerializedMentionNode): MentionNode {
    return $createMentionNode(json.path);
  }

  constructor(path: string, key?: NodeKey) {
    super(key);
    this.__path = path;
  }

  override exportJSON(): SerializedMentionNode {
    return { ...super.exportJSON(), type: "composer-mention", version: 1, path: this.__path };
  }

  /** The mentioned path, without the `@`. */
  getPath(): string {
    return this.getLatest().__path;
  }

  protected override chipAttribute(): readonly [string, string] {
    return ["data-composer-mention-chip", this.__path];
  }

  override getTextContent(): string {
    return `@${this.getLatest().__path}`;
  }

  override decorate(): JSX.Element {
    return <ComposerChip kind="mention" label={`@${this.__path}`} title={this.__path} />;
  }
}

/** Creates a mention chip for `path` (without the `@`). */
export function $createMentionNode(path: string): MentionNode {
  return $applyNodeReplacement(new MentionNode(path));
}

/** Type guard for {@link MentionNode}. */
export function $isMentionNode(node: LexicalNode | null | undefined): node is MentionNode {
  return node instanceof MentionNode;
}
