/**
 * The keyboard side of citing: the shortcut that cites the current selection, and the keys that
 * move focus into an open selection toolbar. Pure functions over keyboard events.
 *
 * Why Alt+Shift+Q ("Q" for quote): Chrome, Firefox and Safari bind no default command to it on
 * Linux, Windows or macOS. Chrome's Alt+Shift shortcuts are A, B, I and T; Firefox and Safari
 * have none (Firefox uses Alt+Shift+key only for a page's own `accesskey`s, and this app defines
 * none); on macOS browser shortcuts use Command, and Option+Shift+Q only types "Œ" in a text
 * field. The Ctrl/Cmd+Shift letters are nearly all taken (developer tools, history, private
 * windows, tab groups, quit), and Ctrl+Alt is AltGr on many European layouts.
 */

/** The shortcut in `aria-keyshortcuts` syntax. */
export const CITE_SHORTCUT = "Alt+Shift+Q";

/** Whether the user is on a Mac (Alt is labelled Option there). */
function isMac(): boolean {
  if (typeof navigator === "undefined") return false;
  const platform =
    (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ??
    navigator.platform ??
    "";
  return /mac/i.test(platform);
}

/** The shortcut as shown to people: "Alt+Shift+Q", or "Option+Shift+Q" on a Mac. */
export function citeShortcutLabel(): string {
  return isMac() ? "Option+Shift+Q" : "Alt+Shift+Q";
}

/** True for Alt+Shift+Q (Option+Shift+Q), whatever character the layout gives for it. */
export function isCiteShortcut(event: KeyboardEvent): boolean {
  if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return false;
  // A letter key reports its letter; Option on a Mac reports the typed character ("Œ"), so
  // fall back to the physical key there.
  if (/^[a-z]$/i.test(event.key)) return event.key.toLowerCase() === "q";
  return event.code === "KeyQ";
}

/** Alt+F10, the usual "go to the toolbar" key of editors (TinyMCE, CKEditor, Google Docs). */
function isAltF10(event: KeyboardEvent): boolean {
  return event.key === "F10" && event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey;
}

/**
 * Whether `event` should move focus into an open selection toolbar: Alt+F10 always; a plain Tab
 * only while focus is on the page itself or on non-interactive text (caret browsing, a screen
 * reader's virtual cursor), so Tab from a button or the composer keeps its usual meaning.
 */
export function isToolbarFocusKey(event: KeyboardEvent): boolean {
  if (isAltF10(event)) return true;
  if (event.key !== "Tab" || event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) {
    return false;
  }
  const active = event.target instanceof Element ? event.target : null;
  if (active === null) return true;
  const document = active.ownerDocument;
  if (active === document.body || active === document.documentElement) return true;
  return active.closest(INTERACTIVE) === null;
}

// A `tabindex="-1"` element (a message focused by script, after a jump or Escape) is not a
// control: Tab from it still goes to the toolbar.
const INTERACTIVE =
  "a[href], button, input, textarea, select, summary, [tabindex]:not([tabindex='-1']), [contenteditable]:not([contenteditable='false'])";
