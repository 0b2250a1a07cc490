import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client.ts";
import { StopTurnButton } from "./StopTurnButton.tsx";

describe("StopTurnButton", () => {
  it("is absent while no turn runs", () => {
    const { container } = render(<StopTurnButton threadId="t" turnId={null} cancel={vi.fn()} />);
    expect(container.textContent).toBe("");
  });

  it("asks the server to stop the running turn and shows it is stopping", async () => {
    let settle: () => void = () => {};
    const cancel = vi.fn(() => new Promise<void>((resolve) => (settle = resolve)));
    render(<StopTurnButton threadId="thread-1" turnId="turn-1" cancel={cancel} />);
    fireEvent.click(screen.getByRole("button", { name: "Stop" }));
    expect(cancel).toHaveBeenCalledWith("thread-1", "turn-1");
    expect(screen.getByRole("button", { name: "Stopping…" })).toHaveProperty("disabled", true);
    await act(async () => settle());
  });

  it("says why when stopping failed, and stays quiet when the turn had already ended", async () => {
    const failing = vi.fn(async () => {
      throw new ApiError(503, "storage_unavailable", "The disk is full.");
    });
    const { rerender } = render(<StopTurnButton threadId="t" turnId="a" cancel={failing} />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Stop" })));
    expect(screen.getByRole("alert").textContent).toBe("The disk is full.");

    const ended = vi.fn(async () => {
      throw new ApiError(409, "turn_not_running", "already ended");
    });
    rerender(<StopTurnButton threadId="t" turnId="b" cancel={ended} />);
    expect(screen.queryByRole("alert")).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Stop" })));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByRole("button", { name: "Stop" })).toHaveProperty("disabled", false);
  });
});
