import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useIdleOnce } from "./useIdleOnce.ts";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useIdleOnce", () => {
  it("stays false while not ready, however long it waits", () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useIdleOnce(false));
    act(() => void vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(false);
  });

  it("turns true after the first idle moment once ready, and stays true", () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ ready }) => useIdleOnce(ready), {
      initialProps: { ready: false },
    });
    rerender({ ready: true });
    expect(result.current).toBe(false); // not in the same render: the browser gets to paint first
    act(() => void vi.runAllTimers());
    expect(result.current).toBe(true);
    rerender({ ready: false });
    expect(result.current).toBe(true);
  });

  it("does not fire after unmounting", () => {
    vi.useFakeTimers();
    const { unmount } = renderHook(() => useIdleOnce(true));
    unmount();
    expect(() => vi.runAllTimers()).not.toThrow();
    expect(vi.getTimerCount()).toBe(0);
  });
});
