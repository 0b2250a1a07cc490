/**
 * The navigation hash: `#assistant-citation=` + unpadded base64url of the href's UTF-8 bytes.
 * Built on the platform's encoders (WHATWG Encoding and `atob`/`btoa`, present in every browser
 * and in Node), held byte for byte to the hand-written encoder it replaced by property tests,
 * so every link made before still opens. Benchmarks: README.md, "Navigation hash".
 */
import { ASSISTANT_CITATION_MAX_HREF_LENGTH } from "./constants.ts";
import { parseAssistantCitationHref } from "./href.ts";
import type { AssistantCitation } from "./schema.ts";

// The package's ES-only lib types do not declare these platform globals.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };
declare const TextDecoder: new (
  label: "utf-8",
  options: { fatal: boolean; ignoreBOM: boolean },
) => { decode(input: Uint8Array): string };
declare function atob(data: string): string;
declare function btoa(data: string): string;

const HASH_PREFIX = "assistant-citation=";
/** Longest base64url payload worth decoding: a 160,000-unit href of 3-byte characters. */
const MAX_PAYLOAD_LENGTH = Math.ceil((ASSISTANT_CITATION_MAX_HREF_LENGTH * 3 * 4) / 3);

/** UTF-8 encoder; a lone surrogate becomes U+FFFD. */
const utf8Encoder = new TextEncoder();
/**
 * Strict UTF-8 decoder: `fatal` makes truncated, overlong, surrogate or out-of-range sequences
 * an error instead of U+FFFD; `ignoreBOM` keeps a leading U+FEFF, which is part of the href.
 */
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Bytes as a "binary string" (one unit per byte), in chunks so no call overflows the stack.
 * `apply` rather than a spread: spreading a typed array walks its iterator, about 7x slower here.
 */
function bytesToBinary(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 8192) {
    const chunk = bytes.subarray(start, start + 8192) as unknown as number[];
    binary += String.fromCharCode.apply(null, chunk);
  }
  return binary;
}

function binaryToBytes(binary: string): Uint8Array {
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Unpadded base64url (RFC 4648 section 5). */
function encodeBase64Url(bytes: Uint8Array): string {
  const base64 = btoa(bytesToBinary(bytes));
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return base64
    .slice(0, base64.length - padding)
    .replaceAll("+", "-")
    .replaceAll("/", "_");
}

/**
 * Strict unpadded base64url decoding: `null` unless `payload` is exactly what
 * {@link encodeBase64Url} writes for some bytes. `atob` forgives whitespace, `=` padding and
 * non-zero trailing bits; re-encoding and comparing rejects all of them (and `+`, `/`), so every
 * byte string has exactly one hash.
 */
function decodeBase64Url(payload: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(payload.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
  const bytes = binaryToBytes(binary);
  return encodeBase64Url(bytes) === payload ? bytes : null;
}

/**
 * The URL hash that navigates to a citation's source: `#assistant-citation=` followed by the
 * unpadded base64url of the href's UTF-8 bytes. Encoding keeps router hash normalization from
 * decoding the quote's whitespace or the source ids.
 */
export function formatAssistantCitationHash(href: string): string {
  return `#${HASH_PREFIX}${encodeBase64Url(utf8Encoder.encode(href))}`;
}

/**
 * Parses a navigation hash (with or without the leading `#`) back to its citation. Returns
 * `null` (never throws) for another hash, invalid base64url, invalid UTF-8 or an invalid href.
 */
export function parseAssistantCitationHash(hash: string): AssistantCitation | null {
  const href = hrefOfAssistantCitationHash(hash);
  return href === null ? null : parseAssistantCitationHref(href);
}

/**
 * The decoding half of {@link parseAssistantCitationHash}: the string a hash carries, before it
 * is parsed as an href, or `null` for another hash, invalid base64url or invalid UTF-8.
 * Internal (tests hold it to the hand-written decoder).
 */
export function hrefOfAssistantCitationHash(hash: string): string | null {
  if (typeof hash !== "string") return null;
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!body.startsWith(HASH_PREFIX)) return null;
  const payload = body.slice(HASH_PREFIX.length);
  if (payload.length === 0 || payload.length > MAX_PAYLOAD_LENGTH) return null;
  const bytes = decodeBase64Url(payload);
  if (bytes === null) return null;
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return null;
  }
}
