/**
 * The server's log: one line per event, `LOG_LEVEL` (`debug`, `info` the default, `warn`,
 * `error`, `silent`) chooses how much. Tests run with `silent`.
 */
export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** A logger writing lines at or above `level` to `sink` (default: the console). */
export function createLogger(
  level: LogLevel,
  sink: Pick<Console, "error" | "warn" | "log"> = console,
): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const on = (at: LogLevel) => rank >= LOG_LEVELS.indexOf(at);
  return {
    error: (message, error) => {
      if (!on("error")) return;
      if (error === undefined) sink.error(message);
      else sink.error(message, error);
    },
    warn: (message) => {
      if (on("warn")) sink.warn(message);
    },
    info: (message) => {
      if (on("info")) sink.log(message);
    },
    debug: (message) => {
      if (on("debug")) sink.log(message);
    },
  };
}

/** A logger that writes nothing (tests, benchmarks). */
export const silentLogger: Logger = createLogger("silent");
