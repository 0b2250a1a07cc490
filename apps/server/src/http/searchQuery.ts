/**
 * The query string of `GET /api/threads/:threadId/search` (issue 23): `q` read from the raw URL
 * so a value that is not valid UTF-8 is refused (`invalid_query`) instead of searched for as
 * its escapes, and the `case`/`word` switches (`0`, `1` or absent).
 */
import { DomainError } from "../domain/errors.ts";

/** `q` decoded (form encoding: `+` is a space), undefined when absent; 400 on bad escapes. */
export function rawSearchQuery(url: string): string | undefined {
  const search = new URL(url).search.slice(1);
  for (const pair of search.split("&")) {
    const equals = pair.indexOf("=");
    const key = equals < 0 ? pair : pair.slice(0, equals);
    if (key !== "q") continue;
    const value = equals < 0 ? "" : pair.slice(equals + 1);
    try {
      return decodeURIComponent(value.replaceAll("+", " "));
    } catch {
      throw new DomainError("invalid_query", "The search query is not valid UTF-8.");
    }
  }
  return undefined;
}

/** A `0`/`1` switch: absent or `0` is false. */
export function searchSwitch(name: "case" | "word", raw: string | undefined): boolean {
  if (raw === undefined || raw === "" || raw === "0") return false;
  if (raw === "1") return true;
  throw new DomainError("invalid_request", `${name} must be 0 or 1 (got "${raw.slice(0, 20)}").`);
}
