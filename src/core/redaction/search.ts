import { formsOf, runLength } from './secret-forms.js';
import { MASK } from './mask.js';

/**
 * Finding the secrets' forms in a text, in time linear in its length: one search for anchors
 * (pieces of each form at fixed places, so any match long enough to mask holds one whole),
 * then each anchor found grown both ways while text and form go on alike. Nothing else of the
 * text is looked at, and no part is looked at twice.
 */

/** What is searched for: a form of a secret, the shortest match of it masked, and its mask. */
interface Pattern {
  text: string;
  lower: string;
  anyCase: boolean;
  /** The shortest match masked: the whole form, or a run of the secret itself (its case). */
  least: number;
  /** Its mask when matched whole; a part is masked by MASK alone. */
  mask: string;
}

/** A span of the text to mask. */
export interface Found {
  start: number;
  end: number;
  mask: string;
}

/** The longest anchor: long enough to be rare in text, short enough for any secret's search. */
const ANCHOR_MOST = 32;
/** The most places of one secret an anchor is tried at. */
const PLACES_MOST = 4;

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const escape = (text: string) => text.replace(SYNTAX, '\\$&');

export class SecretSearch {
  private readonly anchors: RegExp;
  /** Each anchor (lower case) -> the patterns holding it, and where. */
  private readonly holders = new Map<string, { pattern: Pattern; at: number }[]>();
  /** The lengths anchors have: at a place found, every anchor starting there is tried. */
  private readonly sizes = new Set<number>();

  constructor(secrets: ReadonlyMap<string, string>) {
    for (const [secret, mask] of secrets) {
      for (const form of formsOf(secret, mask)) {
        const lower = form.text.toLowerCase();
        this.add({ ...form, lower, least: form.text.length });
        // Its parts, long enough not to be ordinary text, in the secret's own letter case.
        const run = runLength(secret);
        if (form.text === secret && run < secret.length) {
          this.add({ ...form, anyCase: false, lower, least: run });
        }
      }
    }
    const alternatives = [...this.holders.keys()].map(escape);
    // ASCII anchors (most secrets) are searched without Unicode case folding.
    const ascii = alternatives.every((alternative) => /^[\x20-\x7e]*$/.test(alternative));
    this.anchors = new RegExp(alternatives.join('|') || '(?!)', ascii ? 'gi' : 'giu');
  }

  /**
   * Anchors of half the shortest match (at most ANCHOR_MOST), at every such step: any match
   * holds one whole. A form matched only whole needs one: its start.
   */
  private add(pattern: Pattern): void {
    const whole = pattern.least >= pattern.text.length;
    const size = Math.min(
      ANCHOR_MOST,
      whole ? pattern.least : Math.max(4, Math.floor(pattern.least / 2)),
    );
    const last = whole ? 0 : pattern.lower.length - size;
    for (let at = 0; at <= last; at += size) {
      const anchor = pattern.lower.slice(at, at + size);
      this.sizes.add(size);
      const holders = this.holders.get(anchor) ?? [];
      // A secret that repeats itself (`bbbb…`) holds an anchor at many places: a few do, its
      // start first, so a match is grown a few times at most.
      if (holders.filter((holder) => holder.pattern === pattern).length >= PLACES_MOST) continue;
      holders.push({ pattern, at });
      this.holders.set(anchor, holders);
    }
  }

  /** Every span to mask, in order, none overlapping (overlapping ones merged). */
  find(text: string): Found[] {
    const found: Found[] = [];
    const anchors = this.anchors;
    anchors.lastIndex = 0;
    for (let match = anchors.exec(text); match !== null; match = anchors.exec(text)) {
      const best = this.longest(text, match.index);
      if (best === undefined) {
        anchors.lastIndex = match.index + 1;
        continue;
      }
      const previous = found.at(-1);
      // A longer secret holding the one found before it (or the same span): the longer one.
      if (previous !== undefined && best.start <= previous.start && best.end >= previous.end) {
        found[found.length - 1] = best;
      } else if (previous !== undefined && best.start < previous.end) {
        previous.end = Math.max(previous.end, best.end);
        previous.mask = MASK;
      } else found.push(best);
      anchors.lastIndex = Math.max(best.end, match.index + 1);
    }
    return found;
  }

  /** The longest match to mask grown from an anchor at `index`, if any is long enough. */
  private longest(text: string, index: number): Found | undefined {
    let best: Found | undefined;
    const candidates = [...this.sizes].flatMap((size) => {
      const anchor = text.slice(index, index + size).toLowerCase();
      return (this.holders.get(anchor) ?? []).map((holder) => ({ ...holder, anchor }));
    });
    for (const { pattern, at, anchor } of candidates) {
      const same = pattern.anyCase
        ? (t: number, p: number) => text[t]!.toLowerCase() === pattern.lower[p]
        : (t: number, p: number) => text[t] === pattern.text[p];
      let [start, from, end, to] = [index, at, index, at];
      while (start > 0 && from > 0 && same(start - 1, from - 1))
        [start, from] = [start - 1, from - 1];
      while (end < text.length && to < pattern.text.length && same(end, to))
        [end, to] = [end + 1, to + 1];
      // The anchor itself must match in the letter case the pattern needs, and the whole be long.
      if (end < index + anchor.length || end - start < pattern.least) continue;
      if (best !== undefined && end - start <= best.end - best.start) continue;
      const whole = from === 0 && to === pattern.text.length;
      best = { start, end, mask: whole ? pattern.mask : MASK };
    }
    return best;
  }
}
