const UNITS = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
} as const;

/** One amount and its unit; a duration is one or more of them (`1h30m`), largest first. */
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;
const ORDER = ['w', 'd', 'h', 'm', 's', 'ms'];

/**
 * "500ms", "1.5s", "2m", "24h", "7d", "2w", "1h30m" -> milliseconds (units in any case);
 * undefined when it is none of these, repeats or misorders a unit, or lies outside 1 ms to
 * `maxMs`.
 */
export function parseDuration(
  text: string,
  maxMs: number,
  /** Whether 0 (`0s`) is a duration: an age of none, where it means "any". */
  { zero = false }: { zero?: boolean } = {},
): number | undefined {
  const source = text.trim().toLowerCase();
  let ms = 0;
  let last = -1;
  PART.lastIndex = 0;
  while (PART.lastIndex < source.length) {
    const match = PART.exec(source);
    if (!match) return undefined;
    const order = ORDER.indexOf(match[2]!);
    if (order <= last) return undefined;
    last = order;
    ms += Number(match[1]) * UNITS[match[2] as keyof typeof UNITS];
  }
  if (source === '') return undefined;
  return ms >= (zero ? 0 : 1) && ms <= maxMs ? Math.round(ms) : undefined;
}

/** A duration as people say it: 90 s, 25 min, 26 h, 3 d. */
export function durationText(ms: number): string {
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * UNITS.h) return `${Math.round(ms / UNITS.m)} min`;
  if (ms < 2 * UNITS.d) return `${Math.round(ms / UNITS.h)} h`;
  return `${Math.round(ms / UNITS.d)} d`;
}
