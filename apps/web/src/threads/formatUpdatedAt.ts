const relativeTime = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "5 minutes ago"-style label for a thread's last update. */
export function formatUpdatedAt(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const seconds = Math.round((then - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ["second", 60],
    ["minute", 60],
    ["hour", 24],
    ["day", 7],
    ["week", 4.35],
    ["month", 12],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relativeTime.format(Math.round(value), unit);
    value /= size;
  }
  return relativeTime.format(Math.round(value), "year");
}
