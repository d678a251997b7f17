/** Edit distance (insert, delete, replace, swap two neighbours), as commander measures it. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known names closest to what was typed, for a "did you mean" (letter case aside): within
 * a third of its length, at most 3 edits; none when nothing is that close.
 */
export function closestNames(typed: string, known: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(wanted.length / 3)));
  let best = Infinity;
  let found: string[] = [];
  for (const name of known) {
    const edits = distance(wanted, name.toLowerCase());
    if (edits > limit || edits > best) continue;
    if (edits < best) [best, found] = [edits, []];
    found.push(name);
  }
  return found;
}

/** " (did you mean staging?)", or '' when nothing is close. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const close = closestNames(typed, known);
  return close.length ? ` (did you mean ${close.join(' or ')}?)` : '';
}
