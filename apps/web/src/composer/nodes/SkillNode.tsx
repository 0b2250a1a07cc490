/**
 * `$name` as an atomic inline chip. The node stores only the name, as a flat NodeState (its JSON
 * is `{ type: "composer-skill", version: 1, name }`); its text content is the exact source
 * `$name`. Written with Lexical's `$config()`, like {@link MentionNode}.
 */
import { $create, $getState, $setState, createState, type LexicalNode } from "lexical";
import type { JSX } from "react";
import { ComposerChip } from "./ComposerChip.tsx";
import { InlineChipNode } from "./InlineChipNode.ts";

const nameState = createState("name", {
  parse: (value) => (typeof value === "string" ? value : ""),
});

/** A skill chip; DOM host carries `data-composer-skill-chip="<name>"`. */
export class SkillNode extends InlineChipNode {
  override $config() {
    return this.config("composer-skill", {
      extends: InlineChipNode,
      stateConfigs: [{ stateConfig: nameState, flat: true }],
    });
  }

  /** The skill name, without the `$`. */
  getName(): string {
    return $getState(this, nameState);
  }

  protected override chipAttribute(): readonly [string, string] {
    // Called while the DOM is built: read this version, not the latest.
    return ["data-composer-skill-chip", $getState(this, nameState, "direct")];
  }

  override getTextContent(): string {
    return `$${this.getName()}`;
  }

  override decorate(): JSX.Element {
    const name = $getState(this, nameState, "direct");
    return <ComposerChip kind="skill" label={`$${name}`} title={name} />;
  }
}

/** Creates a skill chip for `name` (without the `$`). */
export function $createSkillNode(name: string): SkillNode {
  return $setState($create(SkillNode), nameState, name);
}

/** Type guard for {@link SkillNode}. */
export function $isSkillNode(node: LexicalNode | null | undefined): node is SkillNode {
  return node instanceof SkillNode;
}
