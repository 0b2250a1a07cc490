import type { Message, Thread } from "@app/protocol";
import { createMemoryHistory, RouterProvider } from "@tanstack/react-router";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAppRouter } from "./router.tsx";

const thread = (id: string, title: string): Thread => ({
  id,
  environmentId: "env",
  title,
  branchName: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  messageCount: 2,
});

const message = (
  id: string,
  role: Message["role"],
  kind: Message["kind"],
  seq: number,
  text: string,
): Message => ({
  id,
  threadId: "t1",
  turnId: "turn1",
  role,
  kind,
  text,
  status: "complete",
  seq,
  createdAt: "2026-01-01T00:00:00.000Z",
});

/** Records EventSource instances so tests can drive the stream. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener() {}
  close() {
    this.closed = true;
  }
}

let detailFailures = 0;
let requests: string[] = [];
/** Turn posts to answer with a server error before one succeeds. */
let turnFailures = 0;

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

beforeEach(() => {
  FakeEventSource.instances = [];
  requests = [];
  detailFailures = 1;
  turnFailures = 0;
  localStorage.clear();
  vi.stubGlobal("EventSource", FakeEventSource);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      requests.push(`${init?.method ?? "GET"} ${url}`);
      if (url === "/api/threads" && init?.method === "POST")
        return json(200, thread("t2", "New thread"));
      if (url === "/api/threads" || url.startsWith("/api/threads?")) {
        return json(200, { threads: [thread("t1", "Parsing talk")], nextCursor: null });
      }
      if (url === "/api/threads/t1") {
        if (detailFailures-- > 0)
          return json(500, { error: { code: "internal", message: "Database is busy" } });
        return json(200, {
          thread: thread("t1", "Parsing talk"),
          activeTurn: null,
          pendingUserInput: null,
          lastEventId: 3,
        });
      }
      if (url.startsWith("/api/threads/t1/messages")) {
        return json(200, {
          messages: [
            message("m1", "user", "prompt", 1, "How do parsers stream?"),
            message("m2", "assistant", "answer", 2, "They **chunk** input."),
          ],
          nextCursor: null,
          newerCursor: null,
          turns: [],
        });
      }
      if (url === "/api/threads/t2/turns" && init?.method === "POST") {
        if (turnFailures-- > 0)
          return json(503, { error: { code: "storage_unavailable", message: "Disk is full" } });
        const input = (JSON.parse(String(init.body)) as { input: string }).input;
        return json(201, {
          turn: {
            id: "turn9",
            threadId: "t2",
            status: "running",
            error: null,
            createdAt: "2026-01-01T00:00:00.000Z",
            completedAt: null,
          },
          message: {
            ...message("m9", "user", "prompt", 1, input),
            threadId: "t2",
            turnId: "turn9",
          },
        });
      }
      if (url === "/api/threads/t2") {
        return json(200, {
          thread: thread("t2", "New thread"),
          activeTurn: null,
          pendingUserInput: null,
          lastEventId: 0,
        });
      }
      if (url.startsWith("/api/threads/t2/messages")) {
        return json(200, { messages: [], nextCursor: null, newerCursor: null, turns: [] });
      }
      return json(404, { error: { code: "not_found", message: `No route ${url}` } });
    }),
  );
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(() =>
    DOMRect.fromRect({ width: 800, height: 20000 }),
  );
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(20000);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(800);
  HTMLElement.prototype.scrollBy = vi.fn();
  HTMLElement.prototype.scrollTo = vi.fn();
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderApp(path: string) {
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  render(<RouterProvider router={router} />);
  return router;
}

describe("app", () => {
  it("shows a failed thread load as an alert and recovers with Retry", async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    renderApp("/env/t1");
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Could not load this thread. Database is busy");
    await user.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByText("chunk")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("link", { name: /Parsing talk/ })).toHaveAttribute(
      "data-thread-id",
      "t1",
    );
  });

  it("subscribes after loading, shows Reconnecting… on a lost stream and clears it on reconnect", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    detailFailures = 0;
    renderApp("/env/t1");
    await screen.findByText("chunk");
    // The sidebar's list stream (`/api/threads/events`) is another instance.
    const threadStreams = () =>
      FakeEventSource.instances.filter((source) => source.url.startsWith("/api/threads/t1/"));
    const first = threadStreams()[0]!;
    expect(first.url).toBe("/api/threads/t1/events?lastEventId=3");
    act(() => first.onopen?.());
    act(() => first.onerror?.());
    expect(await screen.findByRole("status")).toHaveTextContent("Reconnecting…");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    const second = threadStreams()[1]!;
    act(() => second.onopen?.());
    await waitFor(() => expect(screen.queryByText("Reconnecting…")).toBeNull());
    vi.useRealTimers();
  });

  it("New thread opens the home composer, focused, as a draft: nothing is created", async () => {
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const router = renderApp("/env/t1");
    await user.click(await screen.findByRole("button", { name: "New thread" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    // The composer is its own lazily loaded chunk: slow to arrive on a busy machine.
    const box = await screen.findByRole("textbox", { name: "Message" }, { timeout: 10_000 });
    await waitFor(() => expect(box).toHaveFocus());
    // Again while already home: still nothing created.
    await user.click(screen.getByRole("button", { name: "New thread" }));
    expect(router.state.location.pathname).toBe("/");
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual([]);
  });

  it("sends the first prompt from the home page: creates the thread with it and opens it", async () => {
    // A draft left on the home page (jsdom cannot type into the editor; e2e types for real).
    localStorage.setItem("composer:draft:v1:home", "Plan the launch");
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const router = renderApp("/");
    // The composer is its own lazily loaded chunk: slow to arrive on a busy machine.
    await screen.findByText("Plan the launch", {}, { timeout: 10_000 });
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/env/t2"), {
      timeout: 10_000,
    });
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual([
      "POST /api/threads",
      "POST /api/threads/t2/turns",
    ]);
    const body = vi
      .mocked(fetch)
      .mock.calls.find(([url]) => String(url) === "/api/threads/t2/turns")?.[1]?.body;
    expect(JSON.parse(String(body))).toEqual({ input: "Plan the launch" });
    // The home draft was sent, so it is not waiting on the home page any more.
    expect(localStorage.getItem("composer:draft:v1:home") ?? "").toBe("");
  });

  it("keeps the home draft on a failed send and retries into the same new thread", async () => {
    turnFailures = 1;
    localStorage.setItem("composer:draft:v1:home", "Plan the launch");
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const router = renderApp("/");
    const box = await screen.findByRole("textbox", { name: "Message" });
    // The composer is its own lazily loaded chunk: slow to arrive on a busy machine.
    await screen.findByText("Plan the launch", {}, { timeout: 10_000 });
    await user.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByRole("alert", {}, { timeout: 10_000 })).toHaveTextContent(
      "Disk is full",
    );
    expect(router.state.location.pathname).toBe("/");
    expect(box).toHaveTextContent("Plan the launch");
    await user.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/env/t2"), {
      timeout: 10_000,
    });
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual([
      "POST /api/threads",
      "POST /api/threads/t2/turns",
      "POST /api/threads/t2/turns",
    ]);
  });
});
