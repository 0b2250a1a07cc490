import { describe, expect, it } from "vitest";
import { CITE_SHORTCUT, isCiteShortcut, isToolbarFocusKey } from "./citeShortcut.ts";

const key = (init: KeyboardEventInit, target?: Element) => {
  const event = new KeyboardEvent("keydown", init);
  if (target) Object.defineProperty(event, "target", { value: target });
  return event;
};

describe("isCiteShortcut", () => {
  it("is Alt+Shift+Q in aria-keyshortcuts syntax", () => {
    expect(CITE_SHORTCUT).toBe("Alt+Shift+Q");
  });

  it("matches Alt+Shift+Q by letter, and by key position when Option types a symbol", () => {
    expect(isCiteShortcut(key({ key: "Q", code: "KeyQ", altKey: true, shiftKey: true }))).toBe(
      true,
    );
    expect(isCiteShortcut(key({ key: "q", code: "KeyA", altKey: true, shiftKey: true }))).toBe(
      true,
    );
    // macOS: Option+Shift+Q types "Œ".
    expect(isCiteShortcut(key({ key: "Œ", code: "KeyQ", altKey: true, shiftKey: true }))).toBe(
      true,
    );
    // AZERTY: the key at Q's position types "A": not the shortcut.
    expect(isCiteShortcut(key({ key: "A", code: "KeyQ", altKey: true, shiftKey: true }))).toBe(
      false,
    );
  });

  it("rejects other modifiers and keys", () => {
    expect(isCiteShortcut(key({ key: "Q", altKey: true }))).toBe(false);
    expect(isCiteShortcut(key({ key: "Q", shiftKey: true }))).toBe(false);
    expect(isCiteShortcut(key({ key: "Q", altKey: true, shiftKey: true, ctrlKey: true }))).toBe(
      false,
    );
    expect(isCiteShortcut(key({ key: "Q", altKey: true, shiftKey: true, metaKey: true }))).toBe(
      false,
    );
    expect(isCiteShortcut(key({ key: "W", altKey: true, shiftKey: true }))).toBe(false);
  });
});

describe("isToolbarFocusKey", () => {
  it("Alt+F10 always; Tab only from the page or plain text", () => {
    document.body.innerHTML = "<p>text</p><button>Copy</button><div contenteditable='true'></div>";
    const [p, button, editor] = [...document.body.children];
    expect(isToolbarFocusKey(key({ key: "F10", altKey: true }, button))).toBe(true);
    expect(isToolbarFocusKey(key({ key: "Tab" }, document.body))).toBe(true);
    expect(isToolbarFocusKey(key({ key: "Tab" }, p))).toBe(true);
    expect(isToolbarFocusKey(key({ key: "Tab" }, button))).toBe(false);
    expect(isToolbarFocusKey(key({ key: "Tab" }, editor))).toBe(false);
    expect(isToolbarFocusKey(key({ key: "Tab", shiftKey: true }, document.body))).toBe(false);
    expect(isToolbarFocusKey(key({ key: "F10" }, document.body))).toBe(false);
  });
});
