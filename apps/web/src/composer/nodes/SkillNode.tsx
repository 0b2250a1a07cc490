/**
 * `$name` as an atomic inline chip. Text content is the exact source `$name`.
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

/** JSON form of a {@link SkillNode}. */
export type SerializedSkillNode = Spread<{ name: string }, SerializedLexicalNode>;

/** A skill chip; DOM host carries `data-composer-skill-chip="<name>"`. */
export class SkillNode extends InlineChipNode {
  __name: string;

  static override getType(): string {
    return "composer-skill";
  }

  static override clone(node: SkillNode): SkillNode {
    return new SkillNode(node.__name, node.__key);
  }

  static override importJSON(json: SerializedSkillNode): SkillNode {
    return $createSkillNode(json.name);
  }

  constructor(name: string, key?: NodeKey) {
    super(key);
    this.__name = name;
  }

  override exportJSON(): SerializedSkillNode {
    return { ...super.exportJSON(), type: "composer-skill", version: 1, name: this.__name };
  }

  /** The skill name, without the `$`. */
  getName(): string {
    return this.getLatest().__name;
  }

  protected override chipAttribute(): readonly [string, string] {
    return ["data-composer-skill-chip", this.__name];
  }

  override getTextContent(): string {
    return `$${this.getLatest().__name}`;
  }

  override decorate(): JSX.Element {
    return <ComposerChip kind="skill" label={`$${this.__name}`} title={this.__name} />;
  }
}

/** Creates a skill chip for `name` (without the `$`). */
export function $createSkillNode(name: string): SkillNode {
  return $applyNodeReplacement(new SkillNode(name));
}

/** Type guard for {@link SkillNode}. */
export function $isSkillNode(node: LexicalNode | null | undefined): node is SkillNode {
  return node instanceof SkillNode;
}
