/**
 * The navigation hash as it was first written, by hand: its own UTF-8 encoder and strict
 * decoder, and its own unpadded base64url. `src/hash.ts` now uses the platform (TextEncoder,
 * TextDecoder, btoa, atob); this copy stays only as the reference the property tests hold it
 * to (byte for byte, so existing links keep working) and as the benchmark's baseline.
 */
import { parseAssistantCitationHref } from "../href.ts";
import type { AssistantCitation } from "../schema.ts";

const HASH_PREFIX = "assistant-citation=";
const MAX_PAYLOAD_LENGTH = Math.ceil((160_000 * 3 * 4) / 3);

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const ALPHABET_INDEX = new Int16Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) {
  ALPHABET_INDEX[ALPHABET.charCodeAt(index)] = index;
}

/** UTF-8 bytes of `value`; a lone surrogate becomes U+FFFD, as in `TextEncoder`. */
function encodeUtf8(value: string): Uint8Array {
  const bytes = new Uint8Array(value.length * 3);
  let length = 0;
  for (let index = 0; index < value.length; index++) {
    let code = value.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = value.charCodeAt(index + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        index++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x80) {
      bytes[length++] = code;
    } else if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
      bytes[length++] = 0x80 | (code & 63);
    } else if (code < 0x10000) {
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 63);
      bytes[length++] = 0x80 | (code & 63);
    } else {
      bytes[length++] = 0xf0 | (code >> 18);
      bytes[length++] = 0x80 | ((code >> 12) & 63);
      bytes[length++] = 0x80 | ((code >> 6) & 63);
      bytes[length++] = 0x80 | (code & 63);
    }
  }
  return bytes.subarray(0, length);
}

/** Strict UTF-8 decoding: `null` for truncated, overlong, surrogate or out-of-range sequences. */
function decodeUtf8(bytes: Uint8Array): string | null {
  const units = new Uint16Array(bytes.length);
  let length = 0;
  let index = 0;
  while (index < bytes.length) {
    const first = bytes[index]!;
    let code: number;
    let extra: number;
    let min: number;
    if (first < 0x80) {
      units[length++] = first;
      index++;
      continue;
    } else if (first >= 0xc2 && first <= 0xdf) {
      code = first & 0x1f;
      extra = 1;
      min = 0x80;
    } else if (first >= 0xe0 && first <= 0xef) {
      code = first & 0x0f;
      extra = 2;
      min = 0x800;
    } else if (first >= 0xf0 && first <= 0xf4) {
      code = first & 0x07;
      extra = 3;
      min = 0x10000;
    } else {
      return null;
    }
    if (index + extra >= bytes.length) return null;
    for (let offset = 1; offset <= extra; offset++) {
      const next = bytes[index + offset]!;
      if ((next & 0xc0) !== 0x80) return null;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
    if (code >= 0x10000) {
      code -= 0x10000;
      units[length++] = 0xd800 + (code >> 10);
      units[length++] = 0xdc00 + (code & 0x3ff);
    } else {
      units[length++] = code;
    }
    index += extra + 1;
  }
  // Chunked so a 160,000-unit string never overflows the call stack.
  let output = "";
  for (let start = 0; start < length; start += 8192) {
    output += String.fromCharCode(...units.subarray(start, Math.min(start + 8192, length)));
  }
  return output;
}

function encodeBase64Url(bytes: Uint8Array): string {
  const parts: string[] = [];
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    parts.push(
      ALPHABET[triple >> 18]! +
        ALPHABET[(triple >> 12) & 63]! +
        ALPHABET[(triple >> 6) & 63]! +
        ALPHABET[triple & 63]!,
    );
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const value = bytes[index]!;
    parts.push(ALPHABET[value >> 2]! + ALPHABET[(value & 3) << 4]!);
  } else if (rest === 2) {
    const value = (bytes[index]! << 8) | bytes[index + 1]!;
    parts.push(
      ALPHABET[value >> 10]! + ALPHABET[(value >> 4) & 63]! + ALPHABET[(value & 15) << 2]!,
    );
  }
  return parts.join("");
}

/** Strict unpadded base64url decoding: `null` for foreign characters or non-canonical tails. */
function decodeBase64Url(value: string): Uint8Array | null {
  if (value.length % 4 === 1) return null;
  const bytes = new Uint8Array(Math.floor((value.length * 3) / 4));
  let length = 0;
  let buffer = 0;
  let bits = 0;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const digit = code < 128 ? ALPHABET_INDEX[code]! : -1;
    if (digit < 0) return null;
    buffer = ((buffer << 6) | digit) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[length++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, so every byte string has exactly one encoding.
  if ((buffer & ((1 << bits) - 1)) !== 0) return null;
  return bytes.subarray(0, length);
}

/** The hand-written `formatAssistantCitationHash`. */
export function handWrittenFormatHash(href: string): string {
  return `#${HASH_PREFIX}${encodeBase64Url(encodeUtf8(href))}`;
}

/** The hand-written `parseAssistantCitationHash`. */
export function handWrittenParseHash(hash: string): AssistantCitation | null {
  const href = handWrittenDecodeHash(hash);
  return href === null ? null : parseAssistantCitationHref(href);
}

/** The href a hash carries, or null: the hand-written decoding steps alone. */
export function handWrittenDecodeHash(hash: string): string | null {
  if (typeof hash !== "string") return null;
  const body = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!body.startsWith(HASH_PREFIX)) return null;
  const payload = body.slice(HASH_PREFIX.length);
  if (payload.length === 0 || payload.length > MAX_PAYLOAD_LENGTH) return null;
  const bytes = decodeBase64Url(payload);
  return bytes === null ? null : decodeUtf8(bytes);
}
