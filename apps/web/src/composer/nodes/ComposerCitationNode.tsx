/**
 * ComposerCitationNode: an inline Lexical DecoratorNode holding one assistant citation (quote,
 * optional comment) as one atomic chip. The node keeps the full serialized link and returns it
 * from getTextContent(), so the prompt string, drafts, stashes and copy carry the citation
 * byte for byte. The label shows the comment when present, otherwise a short quote preview;
 * with a comment, a short quote preview follows as a separate part, and the chip's accessible
 * description holds the full quote and comment.
 * The chip face is a focusable button-like element; clicking it (or Enter/Space on it) opens the
 * comment editor (`plugins/CitationCommentPlugin.tsx`).
 */
import {
  type AssistantCitation,
  collectAssistantCitations,
  serializeAssistantCitation,
} from "@app/citations";
import {
  $applyNodeReplacement,
  type LexicalNode,
  type NodeKey,
  type SerializedLexicalNode,
  type Spread,
} from "lexical";
import type { JSX } from "react";
import { citationChipText } from "../../citations/citationChipText.ts";
import { ComposerChip } from "./ComposerChip.tsx";
import { InlineChipNode } from "./InlineChipNode.ts";

/** JSON form of a {@link ComposerCitationNode}: just the serialized link. */
export type SerializedComposerCitationNode = Spread<{ source: string }, SerializedLexicalNode>;

/**
 * Parses a string that must be exactly one valid citation link.
 * @throws Error with a clear message otherwise.
 */
function parseWholeLink(source: string): AssistantCitation {
  const [link] = collectAssistantCitations(source);
  if (link === undefined || link.start !== 0 || link.end !== source.length) {
    throw new Error("ComposerCitationNode: the source is not exactly one valid citation link");
  }
  return link.citation;
}

/** A citation chip; DOM host carries `data-composer-citation-chip`. */
export class ComposerCitationNode extends InlineChipNode {
  __source: string;
  __citation: AssistantCitation;
  /**
   * The link bytes this chip was built from. A comment edit that brings the citation back to
   * this state (e.g. adding then clearing a comment) restores these exact bytes, even when
   * they were not in the canonical form `serializeAssistantCitation` writes.
   */
  __originalSource: string;

  static override getType(): string {
    return "composer-citation";
  }

  static override clone(node: ComposerCitationNode): ComposerCitationNode {
    return new ComposerCitationNode(node.__source, node.__citation, node.__key);
  }

  static override importJSON(json: SerializedComposerCitationNode): ComposerCitationNode {
    return $createComposerCitationNode(json.source, parseWholeLink(json.source));
  }

  /** `source` must be the serialized form of `citation` as it appears in the prompt. */
  constructor(source: string, citation: AssistantCitation, key?: NodeKey) {
    super(key);
    this.__source = source;
    this.__citation = citation;
    this.__originalSource = source;
  }

  override afterCloneFrom(prevNode: this): void {
    super.afterCloneFrom(prevNode);
    this.__source = prevNode.__source;
    this.__citation = prevNode.__citation;
    this.__originalSource = prevNode.__originalSource;
  }

  override exportJSON(): SerializedComposerCitationNode {
    return { ...super.exportJSON(), type: "composer-citation", version: 1, source: this.__source };
  }

  /** The parsed citation. */
  getCitation(): AssistantCitation {
    return this.getLatest().__citation;
  }

  /** The exact serialized link this chip stands for. */
  getSource(): string {
    return this.getLatest().__source;
  }

  /**
   * Replaces the citation (e.g. after a comment edit); the serialized source is rebuilt from it
   * in the same update, so both change together as one undoable step. A citation equal to the
   * one the chip was built from gets back the original link bytes.
   *
   * @throws Error (before changing anything) when `citation` cannot be serialized, e.g. a
   * comment over the length limit.
   */
  setCitation(citation: AssistantCitation): this {
    const source = serializeAssistantCitation(citation);
    const original = this.getLatest().__originalSource;
    const writable = this.getWritable();
    writable.__citation = citation;
    writable.__source =
      source === serializeAssistantCitation(parseWholeLink(original)) ? original : source;
    return writable;
  }

  protected override chipAttribute(): readonly [string, string] {
    return ["data-composer-citation-chip", ""];
  }

  override getTextContent(): string {
    return this.getLatest().__source;
  }

  override decorate(): JSX.Element {
    const citation = this.__citation;
    // Label = comment or quote preview; with a comment, a short quote preview follows it.
    const { label, quotePreview, description, title } = citationChipText(citation);
    return (
      <ComposerChip
        kind="citation"
        actionable
        label={label}
        secondary={quotePreview}
        description={description}
        title={title}
      />
    );
  }
}

/** Creates a citation chip from its serialized link and parsed citation. */
export function $createComposerCitationNode(
  source: string,
  citation: AssistantCitation,
): ComposerCitationNode {
  return $applyNodeReplacement(new ComposerCitationNode(source, citation));
}

/** Type guard for {@link ComposerCitationNode}. */
export function $isComposerCitationNode(
  node: LexicalNode | null | undefined,
): node is ComposerCitationNode {
  return node instanceof ComposerCitationNode;
}
