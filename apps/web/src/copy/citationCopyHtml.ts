/**
 * The `text/html` flavor of a copy that holds citation links. `text/plain` keeps the Markdown
 * with each chip's serialized link (pasting into our composer, or a compatible client, rebuilds
 * the chips); documents and email prefer HTML, where each citation becomes a readable
 * blockquote with the comment below it, the same reading as `renderAssistantCitationsAsText`.
 * Pure: strings in, a string out.
 */
import { collectAssistantCitations, hasNonWhitespace } from "@app/citations";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** Lines of `text` as escaped HTML joined by `<br>`. */
function lines(text: string): string {
  return text.replace(/\r\n?/g, "\n").split("\n").map(escapeHtml).join("<br>");
}

/** Text between citations: one `<p>` per paragraph (blank-line separated), none when blank. */
function paragraphs(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((part) => part.replace(/^[ \t]*\n|\n[ \t]*$/g, ""))
    .filter((part) => hasNonWhitespace(part))
    .map((part) => `<p>${lines(part.trim())}</p>`)
    .join("");
}

/**
 * HTML for copied Markdown `text` whose citation links become blockquotes (comment below), or
 * null when it holds no valid citation link (the plain text is then the whole story).
 */
export function citationCopyHtml(text: string): string | null {
  const links = collectAssistantCitations(text);
  if (links.length === 0) return null;
  let html = "";
  let cursor = 0;
  for (const { citation, start, end } of links) {
    html += paragraphs(text.slice(cursor, start));
    html += `<blockquote><p>${lines(citation.text)}</p></blockquote>`;
    const comment = citation.comment;
    if (comment !== undefined && hasNonWhitespace(comment))
      html += `<p>${lines(comment.trim())}</p>`;
    cursor = end;
  }
  html += paragraphs(text.slice(cursor));
  return html;
}
