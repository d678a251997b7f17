import { commandLineHint } from '../../output/wording.js';
import type { Hint } from '../../core/phrase.js';
import type { EarlierRecord } from '../../bulk/ledger.js';
import type { RunOutput } from '../../context/context.js';
import { PetstoreError } from '../../core/errors.js';
import { sanitizeLine, snippet } from '../../core/sanitize.js';
import { shortText } from '../../core/short-text.js';
import { fitLine } from '../../core/wrap-text.js';
import { errorFields, reportRecordError } from '../../output/report-error.js';

/** How many records a run that ends at a terminal lists by name; the journal has them all. */
const LISTED = 50;

interface NotCreated {
  position: number;
  name: string;
  what: string;
}

/** The `most` of them first in the input. */
function lowest(records: NotCreated[], most: number): NotCreated[] {
  return records.sort((a, b) => a.position - b.position).slice(0, most);
}

/** "unknown outcome: no answer (timeout)" or "rejected: name too long (invalid, HTTP 400)". */
function whatHappened(error: unknown): string {
  const { code, message, status } = errorFields(error);
  const unknown = error instanceof PetstoreError && error.outcomeUnknown;
  const detail = [code, status ? `HTTP ${status}` : ''].filter(Boolean).join(', ');
  // One screen line where it can: the service's message cut short (all of it is in the journal).
  return `${unknown ? 'outcome unknown' : 'not created'}: ${snippet(message, 60)}${detail ? ` (${detail})` : ''}`;
}

/**
 * What a bulk run says of the records that did not end created. To a program reading stderr
 * (a pipe, or --error-format json), a report per record as it happens. To a person at a
 * terminal, nothing while the progress line runs, then one list at the end (record, name,
 * what happened), before the summary and the one hint that completes the run.
 */
export class NotCreatedReport {
  /** The first LISTED of them by position, kept short: the rest are counted, not kept. */
  private gathered: NotCreated[] = [];
  private count = 0;
  /** Hints that concern some records (not the run's own way to complete it): said once. */
  private readonly notes = new Set<string>();
  readonly atEnd: boolean;

  constructor(private readonly ctx: RunOutput) {
    this.atEnd = ctx.io.stderrIsTTY && !ctx.settings.errorsAsJson;
  }

  /**
   * A record of this run that failed or whose outcome is unknown; `note`, a hint about this
   * record in particular (the run's own hint comes with its summary).
   */
  record(
    error: unknown,
    record: { position: number; name: string; hint?: Hint | undefined },
    note?: Hint,
  ): void {
    if (!this.atEnd) {
      reportRecordError(
        error,
        {
          json: this.ctx.settings.errorsAsJson,
          width: this.ctx.io.stderrColumns,
          write: (text) => this.ctx.io.stderr.write(text),
        },
        { ...record, name: snippet(record.name, 40), hint: note ?? record.hint },
      );
      return;
    }
    this.count++;
    // Memory stays flat however many fail, and however long their names: only what the list
    // can show is kept (the journal has them all).
    this.gathered.push({
      position: record.position,
      name: shortText(snippet(record.name, 30), 31),
      what: whatHappened(error),
    });
    if (this.gathered.length >= LISTED * 4) this.gathered = lowest(this.gathered, LISTED);
    if (note !== undefined) this.notes.add(commandLineHint(note));
  }

  /**
   * At a terminal, the list: this run's, then those earlier runs left that this one did not
   * send again (as the run passed them).
   */
  list(earlier: readonly EarlierRecord[]): void {
    if (!this.atEnd) return;
    const left = earlier.map(({ index, name, error }) => ({
      position: index + 1,
      name,
      what: error
        ? `not created (an earlier run): ${error.message}`
        : 'outcome unknown (an earlier run)',
    }));
    const total = this.count + left.length;
    const all = lowest([...this.gathered, ...left], LISTED);
    if (total === 0) return;
    const width = String(all.at(-1)!.position).length;
    // At a terminal each line fits it, continued under the record's name.
    const fit = (line: string, indent: string) => fitLine(line, this.ctx.io.stderrColumns, indent);
    const indent = ' '.repeat(width + 11);
    const lines = all.map(({ position, name, what }) =>
      fit(
        `  record ${String(position).padStart(width)}  ${sanitizeLine(snippet(name, 30))}: ${sanitizeLine(what)}`,
        indent,
      ),
    );
    if (total > LISTED) lines.push(`  … and ${total - LISTED} more (all in the journal)`);
    const notes = [...this.notes]
      .map((note) => `${fit(`hint: ${sanitizeLine(note)}`, '      ')}\n`)
      .join('');
    this.ctx.io.stderr.write(`Not created (${total}):\n${lines.join('\n')}\n${notes}`);
  }
}
