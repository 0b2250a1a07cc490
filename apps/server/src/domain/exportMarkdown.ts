/**
 * Renders a thread as a readable Markdown document. Citation links never appear as raw URIs:
 * every message goes through `renderAssistantCitationsAsText`, which shows each quote as an
 * escaped blockquote with the user's comment below it.
 */
import { renderAssistantCitationsAsText } from "@app/citations";
import type { Message, Thread } from "@app/protocol";

const HEADINGS: Record<Message["kind"], string> = {
  prompt: "User",
  progress: "Assistant (progress update)",
  answer: "Assistant",
  error: "Error",
};

/** The document's start: title heading and a short provenance line. */
export function renderExportHeader(thread: Thread): string {
  return (
    `# ${escapeHeading(thread.title)}\n\n` +
    `_Exported ${thread.messageCount} message${thread.messageCount === 1 ? "" : "s"} · created ${thread.createdAt}_\n`
  );
}

/** One `##` section per message, preceded by the blank line that separates sections. */
export function renderExportMessage(message: Message): string {
  const heading =
    message.status === "error" && message.kind !== "error"
      ? `${HEADINGS[message.kind]} (interrupted)`
      : HEADINGS[message.kind];
  const body = renderAssistantCitationsAsText(message.text).trim();
  return `\n## ${heading}\n\n${body === "" ? "_(empty)_" : body}\n`;
}

/** A title is one line of plain text; keep Markdown/HTML in it from changing the heading. */
function escapeHeading(title: string): string {
  return title.replace(/\s+/g, " ").replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);
}
