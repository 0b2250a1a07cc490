/**
 * The body limit over real HTTP on `@hono/node-server` (issue 33): a body with a declared length
 * is judged from its header and then read straight from Node's stream, with no WHATWG `Request`
 * built for it (Hono's own `bodyLimit` builds one for every request); a chunked body is still
 * read and limited as it streams. The whole app's 413s are in `api.validation.test.ts`.
 */
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyLimit } from "./bodyLimit.ts";

let server: ReturnType<typeof serve>;
let url: string;

beforeAll(async () => {
  const app = new Hono();
  app.use("*", bodyLimit({ maxSize: 10, onError: (c) => c.text("too large", 413) }));
  // Whether the adapter built its WHATWG Request before the route read the body.
  const built = (raw: Request) => !inspect(raw, { depth: 1 }).includes("nativeRequest: undefined");
  app.post("/echo", async (c) => {
    const before = built(c.req.raw);
    const text = new TextDecoder().decode(await c.req.arrayBuffer());
    return c.json({ text, builtBeforeRead: before, bodyUsed: c.req.raw.bodyUsed });
  });
  app.get("/get", (c) => c.json({ builtBeforeRead: built(c.req.raw) }));
  server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A body sent in chunks, without a declared length. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
      controller.close();
    },
  });
}

describe("bodyLimit on the Node adapter", () => {
  it("reads a body of declared length straight from Node's stream, no Request built", async () => {
    const res = await fetch(`${url}/echo`, { method: "POST", body: "héllo" });
    expect(await res.json()).toEqual({ text: "héllo", builtBeforeRead: false, bodyUsed: true });
    const get = await fetch(`${url}/get`);
    expect(await get.json()).toEqual({ builtBeforeRead: false });
  });

  it("refuses a declared length over the limit, and limits a chunked body as it streams", async () => {
    const declared = await fetch(`${url}/echo`, { method: "POST", body: "12345678901" });
    expect([declared.status, await declared.text()]).toEqual([413, "too large"]);
    const exact = await fetch(`${url}/echo`, { method: "POST", body: "1234567890" });
    expect(((await exact.json()) as { text: string }).text).toBe("1234567890");
    const over = await fetch(`${url}/echo`, {
      method: "POST",
      body: chunked("12345678901"),
      duplex: "half",
    } as RequestInit);
    expect([over.status, await over.text()]).toEqual([413, "too large"]);
    const within = await fetch(`${url}/echo`, {
      method: "POST",
      body: chunked("123456789"),
      duplex: "half",
    } as RequestInit);
    expect(((await within.json()) as { text: string }).text).toBe("123456789");
  });
});
