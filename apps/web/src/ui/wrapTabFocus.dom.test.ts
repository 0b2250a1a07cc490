import { afterEach, describe, expect, it } from "vitest";
import { wrapTabFocus } from "./wrapTabFocus.ts";

function tab(shiftKey = false, key = "Tab") {
  let prevented = false;
  return {
    event: { key, shiftKey, preventDefault: () => (prevented = true) },
    prevented: () => prevented,
  };
}

function dialog(): HTMLElement {
  const container = document.createElement("div");
  container.tabIndex = -1;
  container.innerHTML =
    '<a href="#a">first</a><button disabled>off</button><button>middle</button><button>last</button>';
  document.body.append(container);
  return container;
}

afterEach(() => document.body.replaceChildren());

describe("wrapTabFocus", () => {
  const selector = "a[href], button:not([disabled])";

  it("wraps Tab from the last control to the first, and Shift+Tab back", () => {
    const container = dialog();
    const [first, , , last] = container.children as unknown as HTMLElement[];
    last!.focus();
    const forward = tab();
    expect(wrapTabFocus(forward.event, container, selector)).toBe(true);
    expect(forward.prevented()).toBe(true);
    expect(document.activeElement).toBe(first);
    const back = tab(true);
    expect(wrapTabFocus(back.event, container, selector)).toBe(true);
    expect(document.activeElement).toBe(last);
  });

  it("sends Shift+Tab from the container itself to the last control", () => {
    const container = dialog();
    container.focus();
    expect(wrapTabFocus(tab(true).event, container, selector)).toBe(true);
    expect(document.activeElement?.textContent).toBe("last");
  });

  it("leaves Tab inside, other keys and empty containers to the browser", () => {
    const container = dialog();
    const middle = container.children[2] as HTMLElement;
    middle.focus();
    const inside = tab();
    expect(wrapTabFocus(inside.event, container, selector)).toBe(false);
    expect(inside.prevented()).toBe(false);
    expect(wrapTabFocus(tab(false, "Enter").event, container, selector)).toBe(false);
    expect(wrapTabFocus(tab().event, document.createElement("div"), selector)).toBe(false);
    expect(wrapTabFocus(tab().event, null, selector)).toBe(false);
    expect(document.activeElement).toBe(middle);
  });
});
