import { MASK } from './mask.js';

/**
 * How a secret is found in text: any run of 8 or more of its characters in a row, in any
 * letter case, is masked, the longest such run at each place. A service that echoes a key cut
 * short anywhere (its head, its tail, all but its first and last characters) shows at most 7
 * of its characters in a row. This replaces finding whole keys and a few cut-short forms
 * (first or last half): outside probes found an echo missing one character at each end, a
 * head just short of half, and keys under 16 characters cut at all.
 */

/** The shortest run of a secret that is masked: shorter ones are data as often as not. */
export const RUN = 8;

export interface Secret {
  /** In lower case: runs are compared without regard to letter case. */
  lower: string;
  /** The mask of the whole secret (a key's shows its last characters). */
  mask: string;
  /**
   * How many of its first characters name the kind of key, not the key (`sk_live_`, `ghp_`):
   * a run of them alone is no secret, and masking it would mask every such key in the docs.
   */
  kind: number;
}

/** A run found: where in the text, and what replaces it. */
export interface Run {
  start: number;
  end: number;
  mask: string;
  /** The run is a whole secret. */
  whole: boolean;
}

/** `sk_live_`, `pk_test_`, `ghp_`, `xoxb-`: a short word and a separator, once or twice. */
const KIND = /^(?:[a-z]{1,4}[_-]){1,2}/i;

export function secretOf(text: string, mask: string): Secret {
  const kind = KIND.exec(text)?.[0].length ?? 0;
  // A kind that leaves fewer than RUN characters after it is part of the secret.
  return { lower: text.toLowerCase(), mask, kind: text.length - kind >= RUN ? kind : 0 };
}

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const escape = (text: string) => text.replace(SYNTAX, '\\$&');

/**
 * Anchors: the secret's pieces of ANCHOR characters at every ANCHOR-th place. Any run of RUN
 * (twice ANCHOR) holds one whole, so finding the anchors finds every run, with a search a
 * quarter the size of one for every window of RUN (measured: that doubled the cost of
 * masking a page).
 */
const ANCHOR = RUN / 2;

/** Every run of RUN characters of each secret, but those within its kind, as one search. */
export class RunSearch {
  private readonly windows: RegExp;
  /** Each anchor (lower case) -> the secrets holding it. */
  private readonly holders = new Map<string, Secret[]>();

  constructor(secrets: readonly Secret[]) {
    for (const secret of secrets) {
      const length = ANCHOR;
      for (let at = 0; at + length <= secret.lower.length; at += ANCHOR) {
        if (at + length <= secret.kind) continue;
        const window = secret.lower.slice(at, at + length);
        const holders = this.holders.get(window);
        if (!holders) this.holders.set(window, [secret]);
        else if (!holders.includes(secret)) holders.push(secret);
      }
    }
    const alternatives = [...this.holders.keys()].map(escape);
    // ASCII anchors (most keys) are searched without Unicode case folding, which a search of
    // every character petstore prints pays for at each position; any other needs it.
    const ascii = alternatives.every((alternative) => /^[\x20-\x7e]*$/.test(alternative));
    this.windows = new RegExp(
      alternatives.length ? alternatives.join('|') : '(?!)',
      ascii ? 'gi' : 'giu',
    );
  }

  /** Whether the text holds a run of any secret. */
  test(text: string): boolean {
    this.windows.lastIndex = 0;
    const found = this.windows.test(text);
    this.windows.lastIndex = 0;
    return found;
  }

  /** The runs of secrets in the text, in order, none overlapping, each as long as it goes. */
  runs(text: string): Run[] {
    const runs: Run[] = [];
    const lowerAt = (i: number) => text[i]!.toLowerCase();
    this.windows.lastIndex = 0;
    for (let found = this.windows.exec(text); found; found = this.windows.exec(text)) {
      let best: { start: number; end: number; whole: Secret | undefined } | undefined;
      for (const secret of this.holders.get(found[0].toLowerCase()) ?? []) {
        const window = found[0].toLowerCase();
        for (let at = secret.lower.indexOf(window); at !== -1;) {
          // Grown both ways while text and secret go on alike.
          let start = found.index;
          let from = at;
          while (start > 0 && from > 0 && lowerAt(start - 1) === secret.lower[from - 1]) {
            start--;
            from--;
          }
          let end = found.index + found[0].length;
          let to = at + window.length;
          while (
            end < text.length &&
            to < secret.lower.length &&
            lowerAt(end) === secret.lower[to]
          ) {
            end++;
            to++;
          }
          const whole = from === 0 && to === secret.lower.length ? secret : undefined;
          // Shorter than a run, or its kind alone: data.
          const secretPart = to - Math.max(from, secret.kind);
          const long = end - start >= Math.min(RUN, secret.lower.length) && secretPart > 0;
          if (long && (!best || end - start > best.end - best.start)) best = { start, end, whole };
          at = secret.lower.indexOf(window, at + 1);
        }
      }
      if (!best) {
        this.windows.lastIndex = found.index + 1;
        continue;
      }
      const previous = runs.at(-1);
      // Grown back into the run before it: one run, masked once.
      if (previous && best.start < previous.end) {
        previous.end = Math.max(previous.end, best.end);
        previous.mask = MASK;
        previous.whole = false;
      } else {
        const whole = best.whole !== undefined;
        runs.push({ start: best.start, end: best.end, mask: best.whole?.mask ?? MASK, whole });
      }
      this.windows.lastIndex = Math.max(best.end, found.index + 1);
    }
    return runs;
  }
}
