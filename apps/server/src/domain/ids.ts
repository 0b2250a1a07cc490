/**
 * Every id the server mints (threads, turns, messages, user-input requests): a UUID version 7,
 * whose first 48 bits are the time in ms and whose rest is random, in increasing order within a
 * process (RFC 9562).
 *
 * Why not random (version 4) ids: ids key several indexes on both stores (messages by id, by turn
 * and by parent, turns by id, claims, the search queue). A random key lands each insert on a
 * random index page, so every commit wrote a page per index per row; time-ordered keys append at
 * the right edge of each index, where consecutive inserts share a page. On SQLite that cut the
 * WAL written per turn by a quarter (issue 33). Ids stay opaque: nothing parses them.
 */
import { v7 } from "uuid";

export function newId(): string {
  return v7();
}
