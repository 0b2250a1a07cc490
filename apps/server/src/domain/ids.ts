/**
 * Every id the server mints (threads, turns, messages, user-input requests): a UUID version 7
 * (RFC 9562): 48 bits of Unix time in ms, then a 12-bit counter, then random bits, so the ids a
 * process mints sort in the order it minted them, even when the clock stands still or steps back.
 *
 * Why not random (version 4) ids: ids key several indexes on both stores (messages by id, by turn
 * and by parent, turns by id, claims, the search queue). A random key lands each insert on a
 * random index page, so every commit wrote a page per index per row; time-ordered keys append at
 * the right edge of each index, where consecutive inserts share a page (issue 33). Ids stay
 * opaque: nothing parses them.
 *
 * Why our own: the `uuid` package's v7 asks the system for 16 random bytes per id, a cost that
 * showed on the turn path's profile; Node's `randomUUID` draws its entropy in batches, and its
 * random part is reused here as is.
 */
import { randomUUID } from "node:crypto";

/** A minter of time-ordered ids reading `now` (ms); one per process is {@link newId}. */
export function idMinter(now: () => number = Date.now): () => string {
  let lastMs = 0;
  let counter = 0;
  return () => {
    const ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      counter = 0;
    } else if (++counter > 0xfff) {
      // 4,096 ids in one ms: borrow the next ms, as RFC 9562 allows, to stay in order.
      lastMs += 1;
      counter = 0;
    }
    const time = lastMs.toString(16).padStart(12, "0");
    // randomUUID(): "xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx"; from index 18 on, the variant and
    // 62 random bits.
    return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, "0")}${randomUUID().slice(18)}`;
  };
}

export const newId: () => string = idMinter();
