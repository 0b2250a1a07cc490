import type { Thread } from "@app/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchTextOf } from "../storage/searchText.ts";
import {
  citationLink,
  openTestStore,
  RecordingAdapter,
  removeDir,
  startTestServer,
  type TestServer,
} from "../testing/harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    adapter: new RecordingAdapter(async (ctx) => {
      const progress = ctx.startMessage("progress");
      progress.append("Looking it up…");
      progress.complete();
      const answer = ctx.startMessage("answer");
      answer.append("Here is **the answer**.");
      answer.complete();
    }),
  });
});

afterAll(async () => {
  await server.close();
  await removeDir(server.dataDir);
});

describe("GET /api/threads/:threadId/export.md", () => {
  it("renders the thread as readable Markdown with citations as quotes", async () => {
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    const link = citationLink({ text: "cited line", comment: "my *note*" });
    await server.post(`/api/threads/${thread.id}/turns`, { input: `Explain ${link} again` });
    await server.provider.whenIdle();

    const res = await server.request(`/api/threads/${thread.id}/export.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    // DESIGN.md §9: it downloads as export.md, whatever the thread's name.
    expect(res.headers.get("content-disposition")).toBe('inline; filename="export.md"');
    const markdown = await res.text();
    expect(markdown).not.toContain("t3-citation");
    expect(markdown.split("\n")[0]).toBe("# Explain cited line Comment: my \\*note\\* again");
    const sections = markdown
      .split(/^## /m)
      .slice(1)
      .map((s) => s.split("\n")[0]);
    expect(sections).toEqual(["User", "Assistant (progress update)", "Assistant"]);
    expect(markdown).toMatch(/^> cited line$/m);
    expect(markdown).toContain("note");
    expect(markdown).toContain("Here is **the answer**.");
  });

  it("exports an empty thread with just its title", async () => {
    const thread = (await (
      await server.post("/api/threads", { title: "Empty # one" })
    ).json()) as Thread;
    const markdown = await (await server.request(`/api/threads/${thread.id}/export.md`)).text();
    expect(markdown.split("\n")[0]).toBe("# Empty \\# one");
    expect(markdown).not.toContain("## ");
  });

  it("streams a thread longer than one read page whole and in order", async () => {
    const thread = (await (await server.post("/api/threads", {})).json()) as Thread;
    // 230 turns: 690 messages, several pages of the export's reader. The server's turns wrote
    // them (the test above exports those); here they go in as the seed writes them, in bulk
    // (held to the one-query-per-row writes by `seed.bulk.test.ts`), through a second store on
    // the server's database.
    const store = await openTestStore(server.dataDir);
    try {
      const now = new Date().toISOString();
      const message = (id: string, text: string, role: "user" | "assistant") => ({
        id,
        text,
        searchText: searchTextOf(role, text),
        now,
      });
      await store.transaction((tx) =>
        tx.appendFinishedTurns(
          thread.id,
          Array.from({ length: 230 }, (_, i) => ({
            turnId: `export-turn-${i}`,
            prompt: {
              ...message(`export-q-${i}`, `Question ${i}`, "user"),
              providerInput: `Question ${i}`,
            },
            replies: [
              { ...message(`export-p-${i}`, "Looking it up…", "assistant"), kind: "progress" },
              {
                ...message(`export-a-${i}`, "Here is **the answer**.", "assistant"),
                kind: "answer",
              },
            ],
            citations: [],
          })),
        ),
      );
    } finally {
      await store.close();
    }
    const res = await server.request(`/api/threads/${thread.id}/export.md`);
    expect(res.headers.get("content-length")).toBeNull();
    const markdown = await res.text();
    const questions = [...markdown.matchAll(/^Question (\d+)$/gm)].map((m) => Number(m[1]));
    expect(questions).toEqual(Array.from({ length: 230 }, (_, i) => i));
    expect(markdown.match(/^## /gm)).toHaveLength(690);
    expect(markdown.match(/^Here is \*\*the answer\*\*\.$/gm)).toHaveLength(230);
  });
});
