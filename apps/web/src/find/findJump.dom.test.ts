import { afterEach, describe, expect, it, vi } from "vitest";
import { isMessageUnfolded, resetMessageFolds } from "../timeline/messageFold.ts";
import { type FindJumpDeps, jumpToMatch } from "./findJump.ts";
import type { FindMatch } from "./findState.ts";

const match: FindMatch = { messageId: "m1", role: "assistant", start: 0, end: 4, occurrence: 0 };

afterEach(() => {
  document.body.innerHTML = "";
  resetMessageFolds();
});

/** A scroller holding rows; `mount()` renders the message's row into a fresh one (a new session). */
function setup(overrides: Partial<FindJumpDeps> = {}) {
  let scroller = document.createElement("div");
  document.body.append(scroller);
  const calls = { around: 0, sessions: 0, reveals: 0 };
  const mount = () => {
    scroller.remove();
    scroller = document.createElement("div");
    scroller.innerHTML =
      '<article data-message-id="m1"><div class="message__body">step one</div></article>';
    document.body.append(scroller);
  };
  const deps: FindJumpDeps = {
    isLoaded: () => false,
    loadAround: async () => {
      calls.around++;
      return { status: "loaded" };
    },
    showMessage: () => {
      calls.sessions++;
      setTimeout(mount, 5);
    },
    timeline: () => ({
      getScrollElement: () => scroller,
      revealRange: () => {
        calls.reveals++;
      },
      holdFollowing: () => {},
    }),
    locate: () => {
      const range = document.createRange();
      const text = scroller.querySelector(".message__body")?.firstChild;
      if (!text) return null;
      range.setStart(text, 0);
      range.setEnd(text, 4);
      return range;
    },
    isMounted: () => scroller.querySelector('[data-message-id="m1"]') !== null,
    ...overrides,
  };
  return { deps, calls };
}

describe("jumpToMatch", () => {
  it("loads a far message with one around= request, opens its fold, starts a session and reveals the words", async () => {
    const { deps, calls } = setup();
    const outcome = await jumpToMatch(match, deps).done;
    expect(outcome?.status).toBe("shown");
    expect(outcome?.status === "shown" && outcome.range.toString()).toBe("step");
    expect(calls).toEqual({ around: 1, sessions: 1, reveals: 1 });
    expect(isMessageUnfolded("m1")).toBe(true);
  });

  it("says the message is missing or the history failed, without moving the view", async () => {
    for (const status of ["missing", "failed"] as const) {
      const { deps, calls } = setup({ loadAround: async () => ({ status }) });
      expect((await jumpToMatch(match, deps).done)?.status).toBe(status);
      expect(calls.sessions).toBe(0);
    }
  });

  it("never reveals a range it cannot locate", async () => {
    const { deps, calls } = setup({ locate: () => null });
    expect((await jumpToMatch(match, deps).done)?.status).toBe("not-shown");
    expect(calls.reveals).toBe(0);
  });

  it("a cancelled jump (a newer step) resolves null and does nothing more", async () => {
    let release: () => void = () => {};
    const { deps, calls } = setup({
      loadAround: () =>
        new Promise((resolve) => {
          release = () => resolve({ status: "loaded" });
        }),
    });
    const jump = jumpToMatch(match, deps);
    jump.cancel();
    release();
    expect(await jump.done).toBeNull();
    expect(calls.sessions).toBe(0);
  });

  it("a loaded, mounted row near the view is revealed without a new session", async () => {
    const { deps, calls } = setup({ isLoaded: () => true });
    const scroller = deps.timeline()!.getScrollElement()!;
    scroller.innerHTML =
      '<article data-message-id="m1"><div class="message__body">step one</div></article>';
    const spy = vi.spyOn(deps, "showMessage");
    expect((await jumpToMatch(match, deps).done)?.status).toBe("shown");
    expect(spy).not.toHaveBeenCalled();
    expect(calls.around).toBe(0);
  });
});
