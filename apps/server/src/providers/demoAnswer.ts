/**
 * The demo provider's answer text: deterministic Markdown (paragraphs, a list, a code block, a
 * table, the repeated sentence twice, the user's answers and an account of the citations it
 * received), varied by a hash of the prompt. Pure.
 */
import type { DemoCitationBlock } from "./demoCitationBlock.ts";

/**
 * The sentence every answer contains twice, so that citing it exercises ambiguous resolution.
 */
export const DEMO_REPEATED_SENTENCE = "The demo provider repeats this sentence on purpose.";

/** Echoed quotes and comments are shortened so the account stays short. */
const MAX_ECHO_CODE_POINTS = 160;

/** What one answer is built from. */
export interface AnswerParts {
  userText: string;
  turnNumber: number;
  citations: DemoCitationBlock;
  answers: Record<string, string> | undefined;
}

const OPENINGS = [
  "Here is a demo answer.",
  "Thanks, this is the demo provider speaking.",
  "A short demo reply follows.",
  "The demo provider has read your message.",
] as const;

const CODE_SAMPLES = [
  ["ts", "function add(a: number, b: number): number {", "  return a + b;", "}"],
  ["python", "def total(values):", "    return sum(v for v in values if v > 0)", ""],
  ["sh", "git switch -c demo-branch", 'git commit -m "Try the demo provider"', ""],
] as const;

export function composeAnswer({ userText, turnNumber, citations, answers }: AnswerParts): string {
  const collapsed = userText.replace(/\s+/g, " ").trim();
  const words = collapsed === "" ? [] : collapsed.split(" ");
  const seed = fnv1a(collapsed);
  const opening = OPENINGS[seed % OPENINGS.length]!;
  const [language, ...codeLines] = CODE_SAMPLES[(seed >>> 8) % CODE_SAMPLES.length]!;
  const firstWords = truncateCodePoints(words.slice(0, 8).join(" "), 80);
  const citationCount = citations.status === "ok" ? citations.entries.length : 0;

  const parts: string[] = [
    `${opening} You began with ${firstWords === "" ? "an empty message" : codeSpan(firstWords)}. ${DEMO_REPEATED_SENTENCE}`,
    `This reply is turn ${turnNumber} of the thread. It shows **bold**, _emphasis_ and \`inline code\` so you can try selecting and citing rendered text.`,
    [
      "What this reply contains:",
      "",
      "- paragraphs of plain text",
      "- this bulleted list",
      `- a fenced \`${language}\` code block`,
      "- a table",
      "- an account of the citations it received",
    ].join("\n"),
    [`\`\`\`${language}`, ...codeLines.filter((line) => line !== ""), "```"].join("\n"),
    [
      "| Measure | Value |",
      "| --- | ---: |",
      `| Words in your message | ${words.length} |`,
      `| Characters in your message | ${[...collapsed].length} |`,
      `| Citations received | ${citationCount} |`,
    ].join("\n"),
  ];
  if (answers !== undefined) parts.push(formatAnswers(answers));
  parts.push(`To repeat: ${DEMO_REPEATED_SENTENCE}`);
  parts.push(formatCitationAccount(citations));
  return parts.join("\n\n");
}

function formatAnswers(answers: Record<string, string>): string {
  const ids = Object.keys(answers);
  if (ids.length === 0) return "You answered my question without choosing anything.";
  const lines = ["You answered my question:", ""];
  for (const id of ids) {
    const answer = answers[id]!;
    // Answers are echoed verbatim: a code span keeps them literal, a fence keeps line breaks.
    if (/[\r\n]/.test(answer)) {
      const fence = "`".repeat(Math.max(3, longestRun(answer, "`") + 1));
      lines.push(`- ${codeSpan(id)}:`, "", `${fence}text`, answer, fence, "");
    } else if (answer === "") {
      lines.push(`- ${codeSpan(id)}: (an empty answer)`);
    } else {
      lines.push(`- ${codeSpan(id)}: ${codeSpan(answer)}`);
    }
  }
  return lines.join("\n").trimEnd();
}

function formatCitationAccount(citations: DemoCitationBlock): string {
  if (citations.status === "none")
    return "**Citations:** I received no citations with this message.";
  if (citations.status === "unreadable") {
    return `**Citations:** I received a citation block but could not read it: ${citations.reason}.`;
  }
  const count = citations.entries.length;
  const lines = [
    `**Citations:** I received ${count} ${count === 1 ? "citation" : "citations"}:`,
    "",
  ];
  for (const entry of citations.entries) {
    // Quotes and comments are model output or user text: code spans keep any Markdown or HTML inert.
    let line = `- ${codeSpan(entry.id)} quotes ${codeSpan(echo(entry.text))}`;
    if (entry.comment !== undefined) line += ` with the comment ${codeSpan(echo(entry.comment))}`;
    lines.push(line);
  }
  return lines.join("\n");
}

function echo(text: string): string {
  return truncateCodePoints(text.replace(/\s+/g, " ").trim(), MAX_ECHO_CODE_POINTS);
}

/**
 * A Markdown code span holding `text` literally: the fence is longer than any backtick run
 * inside, and padding spaces (stripped by CommonMark) keep edge backticks apart from the fence.
 */
export function codeSpan(text: string): string {
  const fence = "`".repeat(longestRun(text, "`") + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || /^ .* $/s.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

function truncateCodePoints(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join("")}…`;
}

/** FNV-1a over UTF-16 units: a stable, clock-free way to vary replies by input. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
