/**
 * The demo provider reading back the `<assistant_citations>` block that the provider expansion
 * appends to the input: which part is the user's own text, and the entries (id, quote, comment)
 * it lists. Pure; the demo only reads the block, it never writes one.
 */

/** A citation entry as read back from the `<assistant_citations>` block. */
export interface DemoCitationEntry {
  id: string;
  text: string;
  comment?: string;
}

/** What the demo read from the citation block at the end of the input. */
export type DemoCitationBlock =
  | { status: "none" }
  | { status: "ok"; entries: DemoCitationEntry[] }
  | { status: "unreadable"; reason: string };

const OPEN_TAG = "<assistant_citations>";
const CLOSE_TAG = "</assistant_citations>";

/**
 * Splits off the LAST `<assistant_citations>` block when it closes at the very end of the input,
 * which is where the provider expansion appends it. A tag-like text elsewhere in the prompt is
 * ordinary user text.
 */
export function splitCitationBlock(input: string): { userText: string; block: string | null } {
  const trimmedEnd = input.trimEnd();
  const open = trimmedEnd.lastIndexOf(OPEN_TAG);
  if (
    open === -1 ||
    !trimmedEnd.endsWith(CLOSE_TAG) ||
    open + OPEN_TAG.length > trimmedEnd.length - CLOSE_TAG.length
  ) {
    return { userText: input, block: null };
  }
  return {
    userText: input.slice(0, open),
    block: trimmedEnd.slice(open + OPEN_TAG.length, trimmedEnd.length - CLOSE_TAG.length),
  };
}

/** Reads the citation entries (id, quote, comment) from the block at the end of the input. */
export function readCitationBlock(input: string): DemoCitationBlock {
  const { block } = splitCitationBlock(input);
  if (block === null) return { status: "none" };
  // The block is one description line followed by the JSON array (2-space indent).
  const jsonStart = block.search(/^\s*\[/m);
  if (jsonStart === -1) return { status: "unreadable", reason: "no JSON array in the block" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(block.slice(jsonStart));
  } catch (error) {
    return { status: "unreadable", reason: `invalid JSON (${errorMessage(error)})` };
  }
  if (!Array.isArray(parsed)) return { status: "unreadable", reason: "the JSON is not an array" };
  const entries: DemoCitationEntry[] = [];
  for (const item of parsed) {
    const entry = toCitationEntry(item);
    if (entry === null)
      return { status: "unreadable", reason: "an entry lacks id or citation.text" };
    entries.push(entry);
  }
  return { status: "ok", entries };
}

function toCitationEntry(item: unknown): DemoCitationEntry | null {
  if (!isRecord(item) || typeof item.id !== "string" || !isRecord(item.citation)) return null;
  const { text, comment } = item.citation;
  if (typeof text !== "string") return null;
  return typeof comment === "string" && comment.trim() !== ""
    ? { id: item.id, text, comment }
    : { id: item.id, text };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
