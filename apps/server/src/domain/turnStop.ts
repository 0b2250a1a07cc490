/**
 * Why a running turn was stopped: the reason its AbortSignal carries, and how the turn is then
 * recorded. Anything else that ends a turn early is the provider's own failure.
 */
import type { TurnErrorCode, TurnStatus } from "@app/protocol";

export type TurnStopKind =
  | "cancelled_by_user"
  | "idle_timeout"
  | "turn_timeout"
  | "reply_too_long"
  | "storage_unavailable"
  | "shutdown";

/** The abort reason of a stopped turn. */
export class TurnStop extends Error {
  override readonly name = "TurnStop";
  readonly kind: TurnStopKind;

  constructor(kind: TurnStopKind, message: string) {
    super(message);
    this.kind = kind;
  }

  /** The turn's final status and error. A user's Stop is not an error: its reply is kept. */
  outcome(): { status: TurnStatus; error: { code: TurnErrorCode; message: string } | null } {
    const code = STOP_CODES[this.kind];
    return code === null
      ? { status: "cancelled", error: null }
      : { status: "failed", error: { code, message: this.message } };
  }
}

const STOP_CODES: Record<TurnStopKind, TurnErrorCode | null> = {
  cancelled_by_user: null,
  idle_timeout: "provider_idle_timeout",
  turn_timeout: "provider_turn_timeout",
  reply_too_long: "reply_too_long",
  storage_unavailable: "storage_unavailable",
  shutdown: "cancelled",
};
