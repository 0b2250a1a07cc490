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

/** Title heading, a short provenance line, then one `##` section per message. */
export function renderThreadMarkdown(thread: Thread, messages: Iterable<Message>): string {
  const parts: string[] = [
    `# ${escapeHeading(thread.title)}`,
    `_Exported ${thread.messageCount} message${thread.messageCount === 1 ? "" : "s"} · created ${thread.createdAt}_`,
  ];
  for (const message of messages) {
    const heading =
      message.status === "error" && message.kind !== "error"
        ? `${HEADINGS[message.kind]} (interrupted)`
        : HEADINGS[message.kind];
    const body = renderAssistantCitationsAsText(message.text).trim();
    parts.push(`## ${heading}\n\n${body === "" ? "_(empty)_" : body}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/** A title is one line of plain text; keep Markdown/HTML in it from changing the heading. */
function escapeHeading(title: string): string {
  return title.replace(/\s+/g, " ").replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);
}
