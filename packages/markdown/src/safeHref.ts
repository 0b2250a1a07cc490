/**
 * Link policy for rendered Markdown. Model output and user text may contain any URL; only
 * http, https and mailto become clickable links. Hrefs in the citation URL form
 * (`isAssistantCitationHref`) are kept so the link renderer can turn valid ones into citation
 * chips and show invalid ones as their source; everything else is shown as text.
 */
import { isAssistantCitationHref } from "@app/citations";

/** How a Markdown link destination may be rendered. */
export type HrefKind = "safe" | "citation" | "unsafe";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** Classifies a link destination; anything that is not an absolute http(s)/mailto URL is unsafe. */
export function classifyHref(href: string | null | undefined): HrefKind {
  if (href == null || href === "") return "unsafe";
  if (isAssistantCitationHref(href)) return "citation";
  // Browsers ignore ASCII control characters and whitespace in schemes; reject such hrefs outright.
  if (/[\u0000-\u0020\u007f]/.test(href)) return "unsafe";
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return "unsafe";
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? "safe" : "unsafe";
}

/**
 * react-markdown `urlTransform`: keeps safe and citation hrefs byte for byte, drops the rest
 * (the link then renders as plain text). Image sources must be http(s).
 */
export function markdownUrlTransform(url: string, key: string): string {
  const kind = classifyHref(url);
  if (key === "src") return kind === "safe" && !url.startsWith("mailto:") ? url : "";
  return kind === "unsafe" ? "" : url;
}
