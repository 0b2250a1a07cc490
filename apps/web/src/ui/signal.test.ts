import { describe, expect, it } from "vitest";
import { createSignal } from "./signal.ts";

describe("createSignal", () => {
  it("tells each listener in order, stops after unsubscribe, and clears", () => {
    const signal = createSignal();
    const calls: string[] = [];
    const offA = signal.subscribe(() => calls.push("a"));
    signal.subscribe(() => calls.push("b"));
    signal.notify();
    offA();
    signal.notify();
    signal.clear();
    signal.notify();
    expect(calls).toEqual(["a", "b", "b"]);
  });

  it("a listener that unsubscribes another during notify does not break the round", () => {
    const signal = createSignal();
    const calls: string[] = [];
    let offB = () => {};
    signal.subscribe(() => {
      calls.push("a");
      offB();
    });
    offB = signal.subscribe(() => calls.push("b")) as () => void;
    signal.notify();
    signal.notify();
    expect(calls).toEqual(["a", "b", "a"]);
  });
});
