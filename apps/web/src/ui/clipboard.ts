/** Clipboard writes with a fallback for insecure contexts (plain http on a LAN address). */

/** Copies plain text; resolves false when the browser refused. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall through to the legacy path (permission denied, not focused, insecure origin).
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/**
 * Copies plain text plus an HTML flavor (when `html` is given and the browser can write rich
 * clipboard items); otherwise plain text only. Resolves false when the browser refused.
 */
export async function copyTextAndHtml(text: string, html: string | null): Promise<boolean> {
  if (html !== null && typeof ClipboardItem === "function" && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([
        new ClipboardItem({
          "text/plain": new Blob([text], { type: "text/plain" }),
          "text/html": new Blob([html], { type: "text/html" }),
        }),
      ]);
      return true;
    } catch {
      // Fall back to plain text (rich writes can be refused where plain ones are not).
    }
  }
  return copyText(text);
}
