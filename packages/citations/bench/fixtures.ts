/** Deterministic inputs shared by the benchmarks. */
import type { AssistantCitation } from "../src/schema.ts";
import { serializeAssistantCitation } from "../src/serialize.ts";

const WORDS = [
  "the",
  "model",
  "returns",
  "a",
  "structured",
  "answer",
  "with",
  "several",
  "paragraphs",
  "and",
  "code",
  "that",
  "users",
  "quote",
  "back",
  "into",
  "their",
  "next",
  "prompt",
  "naïve",
  "café",
  "数据",
  "引用",
  "🙂",
  "(see",
  "above)",
  "50%",
  "a+b",
  "x&y",
  "<tag>",
];

/** Small deterministic PRNG (mulberry32) so every run measures the same input. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function prose(next: () => number, length: number): string {
  let out = "";
  while (out.length < length) {
    out += WORDS[Math.floor(next() * WORDS.length)];
    out += next() < 0.08 ? "\n\n" : " ";
  }
  const cut = out.slice(0, length);
  // Never end on half of a surrogate pair: citations must be well-formed UTF-16.
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? `${cut.slice(0, -1)}.` : cut;
}

/**
 * A prompt of exactly `totalLength` characters holding `count` valid citation links (quotes of
 * 80-800 units, every third with a comment), separated by ordinary prose.
 */
export function promptWithCitations(totalLength: number, count: number): string {
  const next = random(42);
  const links: string[] = [];
  for (let i = 0; i < count; i++) {
    const citation: AssistantCitation = {
      version: 1,
      environmentId: "env-7f3a9c",
      threadId: `thread-${i % 5}`,
      messageId: `message-${i}`,
      text: prose(next, 80 + Math.floor(next() * 720)).trim() || "quote",
      start: i * 1000,
      end: i * 1000 + 500,
      prefix: "context before the quote",
      suffix: "and context after",
    };
    if (i % 3 === 0) citation.comment = "Why does this hold? Compare with (2) & <3>.";
    links.push(serializeAssistantCitation(citation));
  }
  const linkLength = links.reduce((sum, link) => sum + link.length, 0);
  const gap = Math.floor((totalLength - linkLength) / (count + 1));
  if (gap < 1) throw new Error("links do not fit in the requested length");
  let out = "";
  for (const link of links) out += `${prose(next, gap - 1)} ${link}`;
  return out + prose(next, totalLength - out.length);
}

/**
 * Adversarial text of exactly `totalLength` characters: thousands of unterminated
 * `[Assistant quote](t3-citation://v1/` prefixes, long runs with neither whitespace nor `)`,
 * closed links whose href does not parse, and openers followed by a huge unterminated run.
 */
export function adversarialPrompt(totalLength: number): string {
  const opener = "[Assistant quote](t3-citation://v1/";
  const pieces: string[] = [];
  let length = 0;
  let i = 0;
  const push = (piece: string) => {
    pieces.push(piece);
    length += piece.length;
  };
  while (length < totalLength) {
    switch (i++ % 4) {
      case 0: // unterminated opener, its "href" cut by the space inside the next opener
        push(`${opener}env/thread/msg?text=${"a".repeat(40)}`);
        break;
      case 1: // a closed link that fails to parse (unknown key) after a long encoded quote
        push(`${opener}e/t/m?text=${"%41".repeat(60)}&start=1&end=2&prefix=&suffix=&x=1) `);
        break;
      case 2: // opener followed by a long run with no whitespace and no `)`
        push(`${opener}${"%2F(".repeat(100)} `);
        break;
      default: // openers packed back to back
        push(opener.repeat(16));
    }
  }
  // A final huge run after an opener that never terminates.
  const text = pieces.join("");
  const tail = `${opener}${"z".repeat(Math.floor(totalLength / 10))}`;
  return text.slice(0, totalLength - tail.length) + tail;
}

/**
 * A rendered text of about `totalLength` characters with `nearMisses` lines that contain `miss`
 * (a near miss of `quote`), plus one real occurrence in the middle, and the selector for it.
 */
export function renderedWithNearMisses(
  quote: string,
  miss: string,
  nearMisses: number,
  totalLength: number,
): {
  rendered: string;
  selector: { text: string; start: number; end: number; prefix: string; suffix: string };
} {
  const lineLength = Math.floor(totalLength / (nearMisses + 1));
  const lines: string[] = [];
  for (let i = 0; i <= nearMisses; i++) {
    const body = i === nearMisses >> 1 ? quote : miss;
    const head = `Line ${i}:\t`;
    lines.push(`${head}${body} `.padEnd(lineLength - 1, "."));
  }
  const rendered = lines.join("\n");
  const rawStart = rendered.indexOf(quote);
  const before = rendered.slice(0, rawStart).replace(/\s+/g, " ");
  const after = rendered.slice(rawStart + quote.length).replace(/\s+/g, " ");
  return {
    rendered,
    selector: {
      text: quote,
      start: before.length,
      end: before.length + quote.length,
      prefix: before.slice(-32),
      suffix: after.slice(0, 32),
    },
  };
}

/**
 * A rendered text with `copies` exact occurrences of `quote`, each with different context, and
 * the selector of one of them: every occurrence must be context-checked.
 */
export function renderedWithRepeats(
  quote: string,
  copies: number,
  totalLength: number,
): {
  rendered: string;
  selector: { text: string; start: number; end: number; prefix: string; suffix: string };
} {
  const lineLength = Math.floor(totalLength / copies);
  const lines: string[] = [];
  for (let i = 0; i < copies; i++)
    lines.push(`Item ${i} says ${quote} then ${i}.`.padEnd(lineLength - 1, "-"));
  const rendered = lines.join("\n");
  const target = `Item ${copies >> 1} says `;
  const rawStart = rendered.indexOf(target) + target.length;
  const before = rendered.slice(0, rawStart).replace(/\s+/g, " ");
  const after = rendered.slice(rawStart + quote.length).replace(/\s+/g, " ");
  return {
    rendered,
    selector: {
      text: quote,
      start: before.length,
      end: before.length + quote.length,
      prefix: before.slice(-32),
      suffix: after.slice(0, 32),
    },
  };
}

/**
 * Every field at its limit in characters that cost the most bytes on the wire (9 per unit once
 * percent-encoded): the longest valid href there is, just under 160,000 characters.
 */
export const longestCitation: AssistantCitation = {
  version: 1,
  environmentId: "中".repeat(512),
  threadId: "文".repeat(512),
  messageId: "字".repeat(512),
  text: "引".repeat(8000),
  start: 9_007_199_254_740_990,
  end: 9_007_199_254_740_991,
  prefix: "前".repeat(32),
  suffix: "后".repeat(32),
  comment: "评".repeat(8000),
};

/** 160,000 units of deterministic prose mixing ASCII, accents, CJK and emoji. */
export function prose160k(): string {
  return prose(random(160), 160_000);
}
