/**
 * Shared behaviour of the composer's atomic inline chips (mentions, skills, citations): a
 * non-editable inline host element that Lexical decorates with React, stepped over by arrow
 * keys like one character. Subclasses name their data attribute and supply the text content.
 */
import { DecoratorNode } from "lexical";
import type { JSX } from "react";

// Not abstract: Lexical's `$config({ extends })` takes only a constructible superclass.
export class InlineChipNode extends DecoratorNode<JSX.Element> {
  /** The host's data attribute (e.g. `data-composer-mention-chip`) and its value. */
  protected chipAttribute(): readonly [name: string, value: string] {
    throw new Error(`${this.getType()}: a chip names its host's data attribute`);
  }

  override createDOM(): HTMLElement {
    const span = document.createElement("span");
    const [name, value] = this.chipAttribute();
    span.setAttribute(name, value);
    span.className = "composer-chip-host";
    // Lexical also sets the contentEditable property; the attribute keeps it visible to tests and CSS.
    span.setAttribute("contenteditable", "false");
    return span;
  }

  override updateDOM(): boolean {
    return false;
  }

  override isInline(): boolean {
    return true;
  }

  /** Arrow keys step over the chip instead of selecting it, like one character. */
  override isKeyboardSelectable(): boolean {
    return false;
  }
}
