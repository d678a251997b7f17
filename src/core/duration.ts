const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * "500ms", "1.5s", "2m", "24h", "7d" -> milliseconds; undefined when it is none of these or
 * lies outside 1 ms to `maxMs`.
 */
export function parseDuration(text: string, maxMs: number): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNITS[match[2] as keyof typeof UNITS];
  return ms >= 1 && ms <= maxMs ? Math.round(ms) : undefined;
}

/** A duration as people say it: 90 s, 25 min, 26 h, 3 d. */
export function durationText(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * UNITS.h) return `${Math.round(ms / UNITS.m)} min`;
  if (ms < 2 * UNITS.d) return `${Math.round(ms / UNITS.h)} h`;
  return `${Math.round(ms / UNITS.d)} d`;
}
