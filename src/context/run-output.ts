import { stringifyJson } from '../core/json.js';
import { sanitizeLine } from '../core/sanitize.js';
import { fitLine } from '../core/wrap-text.js';
import { pickColumns } from '../output/columns.js';
import { formatSpec } from '../output/formats.js';
import { stderrLine } from '../output/json-stderr.js';
import { Progress } from '../output/progress.js';
import { QueryFailedError, type Query } from '../output/query.js';
import { renderData } from '../output/render.js';
import { openRows, type RowsOptions } from '../output/rows.js';
import type { ContextDeps, DataView, RunOutput } from './parts.js';

/** A row of output written as it comes, through --query: its result's line, or none. */
function queriedLine(query: Query, row: unknown): string {
  const result = query(row);
  return result === null || result === undefined ? '' : stringifyJson(result) + '\n';
}

/**
 * --query as the run applies it: after the command took effect, an output the expression
 * fails on is printed whole, and a warning says why; before, the failure ends the run (exit 2).
 */
function shapingQuery(
  query: Query | undefined,
  state: { tookEffect: boolean },
  warn: (message: string) => void,
): Query | undefined {
  if (!query) return undefined;
  let warned = false;
  return (value) => {
    try {
      return query(value);
    } catch (error) {
      if (!(error instanceof QueryFailedError) || !state.tookEffect) throw error;
      if (!warned) {
        warned = true;
        warn(
          `${error.message.replace(/\.$/, '')}: the command took effect, so its output is printed whole`,
        );
      }
      return value;
    }
  };
}

/** The run's output: `effect` says whether the command took effect yet (see RunState). */
export function createRunOutput(
  deps: Pick<ContextDeps, 'io' | 'settings' | 'query'>,
  effect: { tookEffect: boolean },
): RunOutput {
  const { io, settings } = deps;
  const line = (kind: 'warning' | 'note', message: string) => {
    const text = stderrLine(kind, sanitizeLine(message), settings.errorsAsJson);
    // At a terminal, a person's line fits its width, broken at spaces (JSON lines stay whole).
    const width = settings.errorsAsJson ? undefined : io.stderrColumns;
    io.stderr.write(`${fitLine(text.trimEnd(), width)}\n`);
  };
  const query = shapingQuery(deps.query, effect, (message) => line('warning', message));
  let deprecationWarned = false;
  const rowsOptions = (view: DataView): RowsOptions => ({
    format: settings.output,
    color: settings.color,
    pretty: settings.prettyJson,
    width: io.stdoutColumns,
    fields: view.fields,
    write: (text) => io.stdout.write(text),
    query,
  });
  const output: RunOutput = {
    io,
    settings,
    // Notices often quote the service (a pet's name): one clean line each, whatever it sent.
    notice(message) {
      if (!settings.quiet) line('note', message);
    },
    warn(message) {
      if (!settings.quiet) line('warning', message);
    },
    warnDeprecated(message) {
      if (deprecationWarned) return;
      deprecationWarned = true;
      output.warn(message);
    },
    render(data, columns, view = {}) {
      return renderData(data, columns, rowsOptions(view));
    },
    openRows(columns, view = {}) {
      return openRows(pickColumns(columns, view.fields), rowsOptions(view));
    },
    lineRows(columns) {
      // A table waits for the end; with --query each row is shaped as JSON whatever -o says.
      const lineForm = formatSpec(settings.output).lines;
      let lines: { header: string; line: (row: never) => string };
      if (query) lines = { header: '', line: (row: unknown) => queriedLine(query, row) };
      else if (lineForm === undefined) return undefined;
      else lines = lineForm(columns);
      const { header, line } = lines;
      return { header, line, write: (text) => io.stdout.writeSettled(text) };
    },
    progressLine(options = {}) {
      const progress = new Progress(settings.progress ? io.setStatus : undefined);
      if (!settings.progress || !options.interruptible) return progress;
      // A read ends at once on a signal, as the default would: the line is erased first.
      const release = io.onSignal((signal) => {
        progress.done();
        release();
        io.raise?.(signal);
      });
      progress.onDone(release);
      return progress;
    },
    printRequest(request, options = {}) {
      const value = query ? query(request) : request;
      if (options.oneLine && value === null) return;
      io.stdout.write(stringifyJson(value, settings.prettyJson && !options.oneLine) + '\n');
    },
  };
  return output;
}
