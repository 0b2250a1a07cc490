/**
 * Keeps Tab inside a modal piece of UI (a dialog, the comment editor, a popover): on Tab from its
 * last focusable control focus goes to the first, on Shift+Tab from the first (or from the
 * container itself, focused on open) to the last. Other keys, and Tab elsewhere inside, are left
 * to the browser.
 */
/**
 * Handles a keydown inside `container`; `selector` names its focusable controls. Returns true
 * when it moved focus (the event's default is then prevented).
 */
export function wrapTabFocus(
  event: { key: string; shiftKey: boolean; preventDefault(): void },
  container: HTMLElement | null,
  selector: string,
): boolean {
  if (event.key !== "Tab" || container === null) return false;
  const focusables = [...container.querySelectorAll<HTMLElement>(selector)];
  const first = focusables[0];
  const last = focusables.at(-1);
  if (first === undefined || last === undefined) return false;
  const active = document.activeElement;
  const target = event.shiftKey
    ? active === first || active === container
      ? last
      : null
    : active === last
      ? first
      : null;
  if (target === null) return false;
  event.preventDefault();
  target.focus();
  return true;
}
