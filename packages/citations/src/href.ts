import { ASSISTANT_CITATION_HREF_PREFIX, ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { type AssistantCitation, AssistantCitationSchema } from "./schema.ts";

/** Query keys in the order the formatter writes them; `comment` comes last and only when present. */
const QUERY_KEYS = ["text", "start", "end", "prefix", "suffix", "comment"] as const;
type QueryKey = (typeof QUERY_KEYS)[number];

const isQueryKey = (key: string): key is QueryKey =>
  key === "text" ||
  key === "start" ||
  key === "end" ||
  key === "prefix" ||
  key === "suffix" ||
  key === "comment";

/** `start`/`end` on the wire: 1-16 plain ASCII digits (leading zeros allowed). */
const OFFSET_PATTERN = /^[0-9]{1,16}$/;

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

/**
 * Percent-decodes a form component (`+` is a space). Throws `URIError` on malformed
 * percent-encoding or UTF-8; the parser catches it once per href.
 */
function decodeFormComponent(value: string): string {
  if (!value.includes("%") && !value.includes("+")) return value;
  return decodeURIComponent(value.replaceAll("+", " "));
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

  const queryStart = href.indexOf("?", ASSISTANT_CITATION_HREF_PREFIX.length);
  if (queryStart < 0) return null;

  const segments = href.slice(ASSISTANT_CITATION_HREF_PREFIX.length, queryStart).split("/");
  if (segments.length !== 3) return null;
  // A literal dot segment would be removed by URL normalization; the formatter writes `%2E`.
  if (segments.some((segment) => segment === "." || segment === "..")) return null;

  const values: Partial<Record<QueryKey, string>> = {};
  const ids: string[] = [];
  try {
    // Path segments keep `+` as a plus; only the query is form-encoded.
    for (const segment of segments) ids.push(decodeURIComponent(segment));
    for (const part of href.slice(queryStart + 1).split("&")) {
      const equals = part.indexOf("=");
      if (equals < 0) return null; // also rejects empty `&&` parts
      const key = decodeFormComponent(part.slice(0, equals));
      if (!isQueryKey(key) || values[key] !== undefined) return null;
      values[key] = decodeFormComponent(part.slice(equals + 1));
    }
  } catch {
    return null; // malformed percent-encoding or UTF-8 in the path or the query
  }

  const { text, start, end, prefix, suffix, comment } = values;
  if (text === undefined || prefix === undefined || suffix === undefined) return null;
  if (start === undefined || end === undefined) return null;
  if (!OFFSET_PATTERN.test(start) || !OFFSET_PATTERN.test(end)) return null;

  const candidate: Record<string, unknown> = {
    version: 1,
    environmentId: ids[0],
    threadId: ids[1],
    messageId: ids[2],
    text,
    start: Number(start),
    end: Number(end),
    prefix,
    suffix,
  };
  if (comment !== undefined) candidate.comment = comment;
  const result = AssistantCitationSchema.safeParse(candidate);
  return result.success ? result.data : null;
}
