import { ASSISTANT_CITATION_HREF_PREFIX, ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { decodeUriComponentOrNull } from "./percentDecode.ts";
import {
  type AssistantCitation,
  AssistantCitationSchema,
  satisfiesAssistantCitationLimits,
} from "./schema.ts";

/** Query keys in the order the formatter writes them; `comment` comes last and only when present. */
const QUERY_KEYS = ["text", "start", "end", "prefix", "suffix", "comment"] as const;
type QueryKey = (typeof QUERY_KEYS)[number];

/** `start`/`end` on the wire: 1-16 plain ASCII digits (leading zeros allowed). */
function isOffset(value: string): boolean {
  if (value.length < 1 || value.length > 16) return false;
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    if (unit < 0x30 || unit > 0x39) return false;
  }
  return true;
}

const HEX = "0123456789ABCDEF";
const percentByte = (char: string): string => {
  const code = char.charCodeAt(0);
  return `%${HEX[code >> 4]}${HEX[code & 15]}`;
};

/**
 * Encodes one path segment: `encodeURIComponent` plus `! ' ( ) *`, and a segment that is
 * exactly `.` or `..` gets its dots written as `%2E`, because URL parsers would otherwise
 * treat it as a dot segment and the id would not survive.
 */
function encodePathSegment(segment: string): string {
  if (segment === ".") return "%2E";
  if (segment === "..") return "%2E%2E";
  return encodeURIComponent(segment).replace(/[!'()*]/g, percentByte);
}

/**
 * `application/x-www-form-urlencoded` serialization of one name or value, byte-identical to
 * `URLSearchParams#toString()` for well-formed strings: alphanumerics and `* - . _` stay,
 * space becomes `+`, everything else is percent-encoded UTF-8 with uppercase hex.
 */
function encodeFormComponent(value: string): string {
  return encodeURIComponent(value).replace(/%20|[!'()~]/g, (match) =>
    match === "%20" ? "+" : percentByte(match),
  );
}

function describeIssues(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}) {
  return error.issues
    .map(
      (issue) =>
        (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "") + issue.message,
    )
    .join("; ");
}

/**
 * Formats a citation as its `t3-citation://v1/<environmentId>/<threadId>/<messageId>?...` href.
 * The bytes match links written by T3 Code: path segments use `encodeURIComponent` plus
 * `! ' ( ) *`, the query is form-encoded in the order text, start, end, prefix, suffix and
 * `comment` is written only when the citation has one (an empty comment is kept as `comment=`).
 *
 * @throws Error when `citation` is not a valid {@link AssistantCitation}.
 */
export function formatAssistantCitationHref(citation: AssistantCitation): string {
  const result = AssistantCitationSchema.safeParse(citation);
  if (!result.success) {
    throw new Error(`Invalid assistant citation: ${describeIssues(result.error)}`);
  }
  const valid = result.data;
  const values: Record<QueryKey, string | undefined> = {
    text: valid.text,
    start: String(valid.start),
    end: String(valid.end),
    prefix: valid.prefix,
    suffix: valid.suffix,
    comment: valid.comment,
  };
  let query = "";
  for (const key of QUERY_KEYS) {
    const value = values[key];
    if (value === undefined) continue;
    query += `${query === "" ? "" : "&"}${key}=${encodeFormComponent(value)}`;
  }
  const href = `${ASSISTANT_CITATION_HREF_PREFIX}${encodePathSegment(valid.environmentId)}/${encodePathSegment(
    valid.threadId,
  )}/${encodePathSegment(valid.messageId)}?${query}`;
  if (href.length > ASSISTANT_CITATION_MAX_HREF_LENGTH) {
    throw new Error(
      `Invalid assistant citation: href is ${href.length} characters, over the ${ASSISTANT_CITATION_MAX_HREF_LENGTH}-character limit`,
    );
  }
  return href;
}

/**
 * Parses a citation href. Returns `null` (never throws) for anything that is not a valid
 * version 1 citation: another scheme, host or version, credentials, a port, any `#`, other than
 * three path segments, malformed percent-encoding in the path or query, missing, unknown or
 * duplicate keys (compared after decoding), an empty `&&` part, a part without `=`, offsets that
 * are not 1-16 plain digits, an href over 160,000 characters, or any schema limit.
 * Keys may come in any order and offsets may have leading zeros. Runs in linear time.
 */
export function parseAssistantCitationHref(href: string): AssistantCitation | null {
  if (typeof href !== "string") return null;
  if (href.length > ASSISTANT_CITATION_MAX_HREF_LENGTH) return null;
  // Case-sensitive on purpose: credentials (`user@v1`) and ports (`v1:80`) fail here too.
  if (!href.startsWith(ASSISTANT_CITATION_HREF_PREFIX)) return null;
  if (href.includes("#")) return null;

  const pathStart = ASSISTANT_CITATION_HREF_PREFIX.length;
  const queryStart = href.indexOf("?", pathStart);
  if (queryStart < 0) return null;

  // Exactly three path segments: two `/` before the query and no third.
  const slash1 = href.indexOf("/", pathStart);
  if (slash1 < 0 || slash1 > queryStart) return null;
  const slash2 = href.indexOf("/", slash1 + 1);
  if (slash2 < 0 || slash2 > queryStart) return null;
  const slash3 = href.indexOf("/", slash2 + 1);
  if (slash3 >= 0 && slash3 < queryStart) return null;
  // A literal dot segment would be removed by URL normalization; the formatter writes `%2E`.
  if (
    isDotSegment(href, pathStart, slash1) ||
    isDotSegment(href, slash1 + 1, slash2) ||
    isDotSegment(href, slash2 + 1, queryStart)
  ) {
    return null;
  }
  // Path segments keep `+` as a plus; only the query is form-encoded. `null` means malformed
  // percent-encoding or UTF-8, here and in the query.
  const environmentId = decodeUriComponentOrNull(href.slice(pathStart, slash1), false);
  const threadId = decodeUriComponentOrNull(href.slice(slash1 + 1, slash2), false);
  const messageId = decodeUriComponentOrNull(href.slice(slash2 + 1, queryStart), false);
  if (environmentId === null || threadId === null || messageId === null) return null;

  // Decoded values in `QUERY_KEYS` order. Parts are split at every `&`; a seventh part is always
  // unknown or a duplicate, so this loop runs at most seven times and the parse stays linear.
  const values: Array<string | undefined> = QUERY_KEYS.map(() => undefined);
  for (let partStart = queryStart + 1; partStart <= href.length; ) {
    let partEnd = href.indexOf("&", partStart);
    if (partEnd < 0) partEnd = href.length;
    const equals = href.indexOf("=", partStart);
    if (equals < 0 || equals > partEnd) return null; // also rejects empty `&&` parts
    const key = decodeUriComponentOrNull(href.slice(partStart, equals), true);
    const slot = key === null ? -1 : QUERY_KEYS.indexOf(key as QueryKey);
    if (slot < 0 || values[slot] !== undefined) return null;
    const value = decodeUriComponentOrNull(href.slice(equals + 1, partEnd), true);
    if (value === null) return null;
    values[slot] = value;
    partStart = partEnd + 1;
  }

  const [text, start, end, prefix, suffix, comment] = values;
  if (text === undefined || prefix === undefined || suffix === undefined) return null;
  if (start === undefined || end === undefined) return null;
  if (!isOffset(start) || !isOffset(end)) return null;

  const candidate: AssistantCitation = {
    version: 1,
    environmentId,
    threadId,
    messageId,
    text,
    start: Number(start),
    end: Number(end),
    prefix,
    suffix,
  };
  if (comment !== undefined) candidate.comment = comment;
  // Same verdict as `AssistantCitationSchema.safeParse(candidate).success`, without zod's cost.
  return satisfiesAssistantCitationLimits(candidate) ? candidate : null;
}

/** True when `href.slice(start, end)` is exactly `.` or `..`. */
function isDotSegment(href: string, start: number, end: number): boolean {
  const length = end - start;
  if (length !== 1 && length !== 2) return false;
  return href.charCodeAt(start) === 0x2e && href.charCodeAt(end - 1) === 0x2e;
}
