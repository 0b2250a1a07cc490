/** The options of `ProviderService` and their defaults (DESIGN.md section 7). */
import { PROVIDER_INPUT_MAX_CHARS } from "@app/citations";
import type { Logger } from "../logger.ts";
import type { ProviderAdapter } from "../providers/types.ts";
import type { ChatStore, HistoryBudget } from "../storage/chatStore.ts";
import type { Clock } from "./clock.ts";
import type { ThreadEventLog } from "./events.ts";

/** Defaults of the limits (DESIGN.md section 7; env vars of the same names in config.ts). */
export const DEFAULT_PROVIDER_IDLE_TIMEOUT_MS = 60_000;
export const DEFAULT_PROVIDER_TURN_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_REPLY_CHARS = 1_000_000;
/**
 * History policy: the newest earlier turns, whole, at most 50 of them and at most 480,000
 * characters (4 x the input limit) of inputs plus answers together.
 */
export const DEFAULT_HISTORY_BUDGET: HistoryBudget = {
  maxTurns: 50,
  maxChars: 4 * PROVIDER_INPUT_MAX_CHARS,
};
export const STORAGE_RETRY_MS = 2_000;
/** TURN_LEASE_MS default: a turn whose process stops renewing is taken over after this. */
export const DEFAULT_TURN_LEASE_MS = 30_000;

/** Construction options of `ProviderService`. */
export interface ProviderServiceOptions {
  store: ChatStore;
  events: ThreadEventLog;
  adapter: ProviderAdapter;
  /** Clock for stored timestamps (ISO-8601). */
  now?: () => string;
  /**
   * Runs the turn path's timers: the writer's flush, lease renewals and the claim sweep, the
   * deadlines, storage retries and the shutdown grace (default `realClock`; tests advance a
   * `ManualClock`).
   */
  clock?: Clock;
  /** Which earlier turns an adapter receives as history (default {@link DEFAULT_HISTORY_BUDGET}). */
  history?: HistoryBudget;
  /** A turn whose provider sends nothing for this long fails (default 60,000 ms). */
  idleTimeoutMs?: number;
  /** A turn running longer than this fails (default 600,000 ms; time waiting for the user excluded). */
  turnTimeoutMs?: number;
  /** Characters one turn's reply may hold (default 1,000,000). */
  maxReplyChars?: number;
  /** How often writes that hit a storage fault are tried again (default 2,000 ms). */
  storageRetryMs?: number;
  /** TURN_LEASE_MS: lease on a running turn, renewed every third of it (default 30,000 ms). */
  turnLeaseMs?: number;
  /** Where failed turns are logged (default: silent). */
  logger?: Logger;
}
