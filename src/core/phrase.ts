/**
 * Hints and notes that name what a reader can do (an option, a command, the call that completes
 * a run) as references, not as one front end's words: the command line words `batchId` as
 * `--batch-id`, an agent's front end as the `batch_id` argument of a tool, or says the step is
 * the person's. Written with `phrase`: phrase`Name the job, e.g. ${option('batchId')} "ci-1".`
 */

/** The inputs of operations a hint may name, as each front end's name comes from them. */
export type OptionName =
  | 'all'
  | 'allowInsecureHttp'
  | 'allowWrites'
  | 'again'
  | 'baseUrl'
  | 'batchId'
  | 'file'
  | 'idempotencyKey'
  | 'ignoreKeyWindow'
  | 'inputFormat'
  | 'insecureStorage'
  | 'json'
  | 'journal'
  | 'keyWindow'
  | 'limit'
  | 'maxItems'
  | 'maxLatency'
  | 'maxWait'
  | 'paginate'
  | 'printAll'
  | 'profile'
  | 'quickstartUrl'
  | 'rejects'
  | 'resume'
  | 'retryFailed'
  | 'retryUnknown'
  | 'shard'
  | 'skipInvalid'
  | 'status'
  | 'template'
  | 'timeout';

/** What a reader can run, by noun and verb. */
export type CommandName =
  | 'api'
  | 'auth login'
  | 'auth status'
  | 'journal list'
  | 'message send'
  | 'pets add'
  | 'pets import'
  | 'pets list'
  | 'profile list'
  | 'profile set'
  | 'profile show'
  | 'sandbox serve';

/** The call that completes a journaled run: the front end's own words for it, and what to add. */
export interface ResumeRef {
  /** As the front end that started the run words it (ImportPorts.resumeCommand). */
  readonly words: string;
  readonly retryUnknown?: boolean;
  readonly retryFailed?: boolean;
  readonly printAll?: boolean;
}

export type Ref =
  | { readonly option: OptionName; readonly value?: string }
  | {
      readonly command: CommandName;
      /** Options given with it, and their values (`STATUS` for one the reader picks). */
      readonly with?: Readonly<Partial<Record<OptionName, string>>>;
    }
  | { readonly resume: ResumeRef };

/** Text and references, in order. */
export type Phrase = readonly (string | Ref)[];

/** A hint or note: plain text, or a phrase with references. */
export type Hint = string | Phrase;

export const option = (name: OptionName, value?: string): Ref =>
  value === undefined ? { option: name } : { option: name, value };

export const command = (
  name: CommandName,
  withOptions?: Partial<Record<OptionName, string>>,
): Ref => (withOptions === undefined ? { command: name } : { command: name, with: withOptions });

export const resume = (ref: ResumeRef): Ref => ({ resume: ref });

/** A phrase from a template: text as written, numbers as text, references kept. */
export function phrase(
  strings: TemplateStringsArray,
  ...values: readonly (Ref | string | number)[]
): Phrase {
  const parts: (string | Ref)[] = [];
  const text = (piece: string) => {
    if (piece === '') return;
    const last = parts.at(-1);
    if (typeof last === 'string') parts[parts.length - 1] = last + piece;
    else parts.push(piece);
  };
  strings.forEach((piece, index) => {
    text(piece);
    if (index < values.length) {
      const value = values[index]!;
      if (typeof value === 'object') parts.push(value);
      else text(String(value));
    }
  });
  return parts;
}

/** How a front end words each reference; undefined: its reader has no such thing. */
export interface Wording {
  option(name: OptionName, value: string | undefined): string | undefined;
  command(name: CommandName, withOptions: Partial<Record<OptionName, string>>): string | undefined;
  resume(ref: ResumeRef): string | undefined;
}

function wordRef(ref: Ref, wording: Wording): string | undefined {
  if ('option' in ref) return wording.option(ref.option, ref.value);
  if ('command' in ref) return wording.command(ref.command, ref.with ?? {});
  return wording.resume(ref.resume);
}

/** The hint in a front end's words; undefined when it names something its reader cannot do. */
export function wordHint(hint: Hint, wording: Wording): string | undefined {
  if (typeof hint === 'string') return hint;
  let text = '';
  for (const part of hint) {
    const words = typeof part === 'string' ? part : wordRef(part, wording);
    if (words === undefined) return undefined;
    text += words;
  }
  return text;
}

/** Another phrase after this one, for hints built of parts. */
export function joinHints(...hints: readonly (Hint | undefined)[]): Phrase {
  const parts: (string | Ref)[] = [];
  for (const hint of hints) {
    if (hint === undefined) continue;
    if (parts.length > 0) parts.push(' ');
    if (typeof hint === 'string') parts.push(hint);
    else parts.push(...hint);
  }
  return parts;
}
