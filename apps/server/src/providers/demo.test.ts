import {
  type AssistantCitation,
  expandAssistantCitationsForProvider,
  serializeAssistantCitation,
} from "@app/citations";
import { citationFixture } from "@app/citations/testing";
import { describe, expect, it } from "vitest";
import { createDemoProvider, DEMO_QUESTION } from "./demo.ts";
import { codeSpan, DEMO_REPEATED_SENTENCE } from "./demoAnswer.ts";
import { readCitationBlock } from "./demoCitationBlock.ts";
import {
  createRecordingContext,
  messageText,
  type RecordingContextOptions,
} from "./testing/recordingContext.ts";
import type { ProviderHistoryEntry } from "./types.ts";

function citation(text: string, comment?: string, messageId = "message-1"): AssistantCitation {
  return citationFixture({
    threadId: "thread-0",
    messageId,
    text,
    ...(comment === undefined ? {} : { comment }),
  });
}

async function runDemo(options: RecordingContextOptions, chunkSize = 24) {
  const recording = createRecordingContext(options);
  await createDemoProvider({ chunkDelayMs: 0, chunkSize }).runTurn(recording.ctx);
  return recording;
}

async function answerOf(input: string, history: ProviderHistoryEntry[] = []): Promise<string> {
  const { messages } = await runDemo({ input, history });
  const answer = messages.at(-1)!;
  expect(answer.kind).toBe("answer");
  return messageText(answer);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("demo provider: content", () => {
  it("is deterministic: the same input and history give the same messages and chunks", async () => {
    const history: ProviderHistoryEntry[] = [
      { role: "user", text: "one" },
      { role: "assistant", text: "two" },
    ];
    const first = await runDemo({ input: "Tell me about tables", history });
    const second = await runDemo({ input: "Tell me about tables", history });
    expect(second.messages).toEqual(first.messages);
  });

  it("varies the reply with the input and mentions its first words", async () => {
    const a = await answerOf("Explain tables in Markdown");
    const b = await answerOf("Write a haiku about rivers");
    expect(a).not.toBe(b);
    expect(a).toContain("`Explain tables in Markdown`");
    expect(b).toContain("`Write a haiku about rivers`");
  });

  it("contains paragraphs, a list, a fenced code block, a GFM table and the repeated sentence", async () => {
    const text = await answerOf("Show me everything");
    const blocks = text.split("\n\n");
    const paragraphs = blocks.filter((block) => /^[A-Z][^\n]*\.$/.test(block));
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^- .+\n- .+\n- .+/m);
    expect(text).toMatch(/^```(ts|python|sh)\n[^`]+\n```$/m);
    expect(text).toMatch(/^\| Measure \| Value \|\n\| --- \| ---: \|\n(\| .+ \| \d+ \|\n?){3}/m);
    expect(text.split(DEMO_REPEATED_SENTENCE).length - 1).toBeGreaterThanOrEqual(2);
    expect(text.trimEnd().split("\n").at(-1)).toBe(
      "**Citations:** I received no citations with this message.",
    );
  });

  it("streams in chunks that never split a surrogate pair", async () => {
    const { messages } = await runDemo({ input: "😀😃😄 emoji 👩‍👩‍👧 everywhere 😀😃😄" }, 3);
    const answer = messages[0]!;
    expect(answer.chunks.length).toBeGreaterThan(100);
    expect(answer.completed).toBe(true);
    for (const chunk of answer.chunks) {
      expect(chunk).not.toMatch(LONE_SURROGATE);
      expect([...chunk].length).toBeLessThanOrEqual(3);
    }
    expect(messageText(answer)).toContain("😀😃😄 emoji 👩‍👩‍👧");
  });
});

describe("demo provider: citation account", () => {
  it("lists the ids, quotes and comments of an expanded input", async () => {
    const first = citation("Paris is the capital of France.");
    const second = citation("Use `npm start` <b>now</b>", "Is <this> & that\nright?", "message-2");
    const prompt = `Compare ${serializeAssistantCitation(first)} with ${serializeAssistantCitation(second)} and ${serializeAssistantCitation(first)}`;
    const input = expandAssistantCitationsForProvider(prompt);
    const text = await answerOf(input);

    expect(text).toContain("`Compare [assistant-quote-1] with [assistant-quote-2] and");
    expect(text).toContain("**Citations:** I received 2 citations:");
    expect(text).toContain("- `assistant-quote-1` quotes `Paris is the capital of France.`");
    expect(text).toContain(
      "- `assistant-quote-2` quotes ``Use `npm start` <b>now</b>`` with the comment `Is <this> & that right?`",
    );
    expect(text).toContain("| Citations received | 2 |");
  });

  it("keeps quoted Markdown and HTML inert inside code spans", async () => {
    const quote = "# Heading\n\n<img src=x onerror=alert(1)>\n\n| a | b |\n```js\nx\n```";
    const input = expandAssistantCitationsForProvider(
      serializeAssistantCitation(citation(quote, "```\n- item")),
    );
    const text = await answerOf(input);
    const account = text.slice(text.indexOf("**Citations:**"));
    const lines = account.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(
      "- `assistant-quote-1` quotes ```` # Heading <img src=x onerror=alert(1)> | a | b | ```js x ``` ```` with the comment ```` ``` - item ````",
    );
  });

  it("shortens very long quotes", async () => {
    const input = expandAssistantCitationsForProvider(
      serializeAssistantCitation(citation("word ".repeat(500).trim())),
    );
    const line = (await answerOf(input)).split("\n").at(-1)!;
    expect(line.length).toBeLessThan(220);
    expect(line).toMatch(/word…`$/);
  });

  it("treats a block that is not at the end, or tag-like user text, as no citations", () => {
    expect(
      readCitationBlock("<assistant_citations>\nx\n[]\n</assistant_citations>\nmore text"),
    ).toEqual({ status: "none" });
    expect(readCitationBlock("just text")).toEqual({ status: "none" });
    expect(
      readCitationBlock("a\n\n<assistant_citations>\nline\n[ broken\n</assistant_citations>"),
    ).toMatchObject({ status: "unreadable" });
    expect(
      readCitationBlock('x\n\n<assistant_citations>\nline\n[{"id":1}]\n</assistant_citations>'),
    ).toMatchObject({ status: "unreadable", reason: "an entry lacks id or citation.text" });
  });

  it("reads the last block and ignores triggers quoted inside it", async () => {
    const input = expandAssistantCitationsForProvider(
      `Quote: ${serializeAssistantCitation(citation("fail please, ask me, progress"))}`,
    );
    const { messages, questions } = await runDemo({ input });
    expect(questions).toEqual([]);
    expect(messages.map((m) => m.kind)).toEqual(["answer"]);
    expect(messageText(messages[0]!)).toContain("quotes `fail please, ask me, progress`");
  });
});

describe("demo provider: a long reply", () => {
  it('writes the answer out 40 times when the prompt says "long reply"', async () => {
    const short = await answerOf("Please write it");
    const long = await answerOf("Please write it, LONG REPLY");
    expect(long.match(/^### Part \d+$/gm)).toHaveLength(40);
    expect(long.length).toBeGreaterThan(40 * short.length * 0.9);
  });
});

describe("demo provider: turns with several messages", () => {
  it('sends two progress messages first when the prompt says "progress"', async () => {
    const { messages } = await runDemo({ input: "Show PROGRESS updates" });
    expect(messages.map((m) => [m.kind, messageText(m), m.completed])).toEqual([
      ["progress", "Reading the thread…", true],
      ["progress", "Drafting an answer…", true],
      ["answer", expect.stringContaining(DEMO_REPEATED_SENTENCE), true],
    ]);
  });

  it("sends one progress message on every third turn", async () => {
    const turn = (n: number): ProviderHistoryEntry[] =>
      Array.from({ length: n - 1 }, (_, i) => [
        { role: "user" as const, text: `q${i}` },
        { role: "assistant" as const, text: `a${i}` },
      ]).flat();
    const kinds = async (n: number) =>
      (await runDemo({ input: "hello", history: turn(n) })).messages.map((m) => m.kind);
    expect(await kinds(1)).toEqual(["answer"]);
    expect(await kinds(2)).toEqual(["answer"]);
    expect(await kinds(3)).toEqual(["progress", "answer"]);
    expect(await kinds(6)).toEqual(["progress", "answer"]);
  });
});

describe("demo provider: asking the user", () => {
  it('asks the choice question on "ask me" and echoes the answer verbatim', async () => {
    const { messages, questions } = await runDemo({
      input: "Please ASK ME something",
      answer: async () => ({ choice: "B `with` <i>markup</i>" }),
    });
    expect(questions).toEqual([[DEMO_QUESTION]]);
    expect(DEMO_QUESTION).toEqual({
      id: "choice",
      prompt: "Which option should I use?",
      options: ["A", "B"],
    });
    expect(messages.map((m) => m.kind)).toEqual(["answer"]);
    expect(messageText(messages[0]!)).toContain("- `choice`: ``B `with` <i>markup</i>``");
  });

  it("keeps a multi-line answer with a raw citation link intact in a fence", async () => {
    const link = serializeAssistantCitation(citation("quoted"));
    const raw = `line one\n\`\`\`\n${link}`;
    const { messages } = await runDemo({ input: "ask me", answer: async () => ({ choice: raw }) });
    expect(messageText(messages[0]!)).toContain(`\`\`\`\`text\n${raw}\n\`\`\`\``);
  });

  it("sends the answer only after the question resolves", async () => {
    let release: (answers: Record<string, string>) => void = () => {};
    const recording = createRecordingContext({
      input: "ask me",
      answer: () =>
        new Promise((resolve) => {
          release = resolve;
        }),
    });
    const turn = createDemoProvider({ chunkDelayMs: 0 }).runTurn(recording.ctx);
    await Promise.resolve();
    expect(recording.questions).toHaveLength(1);
    expect(recording.messages).toEqual([]);
    release({ choice: "A" });
    await turn;
    expect(messageText(recording.messages[0]!)).toContain("- `choice`: `A`");
  });
});

describe("demo provider: failure and abort", () => {
  it('fails the turn on "fail please" before writing anything', async () => {
    const recording = createRecordingContext({ input: "Now FAIL PLEASE" });
    await expect(createDemoProvider({ chunkDelayMs: 0 }).runTurn(recording.ctx)).rejects.toThrow(
      /failed on purpose/,
    );
    expect(recording.messages).toEqual([]);
  });

  it("stops streaming when the signal aborts mid-message", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const recording = createRecordingContext({
      input: "hello",
      signal: controller.signal,
      onAppend: (message) => {
        if (message.chunks.length === 2) controller.abort(reason);
      },
    });
    await expect(createDemoProvider({ chunkDelayMs: 0 }).runTurn(recording.ctx)).rejects.toBe(
      reason,
    );
    expect(recording.messages).toHaveLength(1);
    expect(recording.messages[0]!.chunks).toHaveLength(2);
    expect(recording.messages[0]!.completed).toBe(false);
  });

  it.each([
    ["before the delay starts", (abort: () => void) => abort()],
    ["during the delay", (abort: () => void) => setImmediate(abort)],
  ])("stops when aborted %s between chunks", async (_when, schedule) => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const recording = createRecordingContext({
      input: "hello",
      signal: controller.signal,
      onAppend: () => schedule(() => controller.abort(reason)),
    });
    // A long delay: the turn can only settle through the abort, not by the timer.
    const turn = createDemoProvider({ chunkDelayMs: 60_000 }).runTurn(recording.ctx);
    await expect(turn).rejects.toBe(reason);
    expect(recording.messages[0]!.chunks).toHaveLength(1);
  });

  it("does nothing when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("shutdown"));
    const recording = createRecordingContext({ input: "hello", signal: controller.signal });
    await expect(createDemoProvider().runTurn(recording.ctx)).rejects.toThrow("shutdown");
    expect(recording.messages).toEqual([]);
  });

  it("rejects invalid options", () => {
    expect(() => createDemoProvider({ chunkDelayMs: -1 })).toThrow(RangeError);
    expect(() => createDemoProvider({ chunkSize: 0 })).toThrow(RangeError);
    expect(() => createDemoProvider({ chunkSize: 1.5 })).toThrow(RangeError);
  });
});

describe("codeSpan", () => {
  it.each([
    ["plain", "`plain`"],
    ["a `b` c", "``a `b` c``"],
    ["`edge", "`` `edge ``"],
    ["x``y", "```x``y```"],
    [" spaced ", "`  spaced  `"],
  ])("wraps %j as %j", (text, expected) => {
    expect(codeSpan(text)).toBe(expected);
  });
});
