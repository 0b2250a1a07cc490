/** Search slices resume one per turn of the event loop, in order (`searchTurns.ts`, issue 33). */
import { describe, expect, it } from "vitest";
import { yieldToEventLoop } from "./searchTurns.ts";

describe("search turns", () => {
  it("resume one waiting slice per turn of the event loop, first come first served", async () => {
    const order: string[] = [];
    const slices = ["a", "b", "c"].map((id) => yieldToEventLoop().then(() => order.push(id)));
    // Queued after the first resumption, in the same check phase.
    setImmediate(() => order.push("other"));
    await Promise.all(slices);
    expect(order).toEqual(["a", "other", "b", "c"]);
  });
});
