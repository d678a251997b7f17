import { stringifyJson } from '../../core/json.js';
import { randomUUID } from 'node:crypto';
import type { Command } from '@commander-js/extra-typings';
import {
  BrokenLink,
  brokenLinkError,
  type AnyAnswer,
  type AnyRequest,
  type PetstoreClient,
} from '../../api/client.js';
import type { WriteOptions } from '../../api/options.js';
import { isSafeMethod } from '../../api/http.js';
import { finishWrite, endInterrupted } from '../../cmdutil/finish-write.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { credentialSecrets } from '../../core/redaction/index.js';
import { PageLoopGuard } from '../../operations/page-guard.js';
import { ApiError, PetstoreError, ProtocolError } from '../../core/errors.js';
import { sanitizeLine } from '../../core/sanitize.js';
import { count } from '../../output/progress.js';
import { PageFailure, printBody, printPages } from './print.js';
import { declareApi, type ApiFlags } from './api-flags.js';
import { toApiSpec, type ApiSpec } from './request-spec.js';

export interface ApiOptions {
  path: string;
  flags: ApiFlags;
}

/** -i: the status line and headers on stderr, each through the same masking as everything. */
function include(ctx: RunOutput, answer: Pick<AnyAnswer, 'status' | 'headers'>): void {
  if (ctx.settings.errorsAsJson) {
    // stderr one object a line: the status and headers as one.
    const headers = Object.fromEntries(
      Object.entries(answer.headers).map(([name, value]) => [name, sanitizeLine(value ?? '')]),
    );
    ctx.io.stderr.write(`${stringifyJson({ response: { status: answer.status, headers } })}\n`);
    return;
  }
  ctx.io.stderr.write(`HTTP ${answer.status}\n`);
  for (const [name, value] of Object.entries(answer.headers)) {
    ctx.io.stderr.write(`${name}: ${sanitizeLine(value ?? '')}\n`);
  }
  ctx.io.stderr.write('\n');
}

async function* pages(
  ctx: RunOutput & RunServices & RunState,
  client: PetstoreClient,
  spec: ApiSpec,
  first: AnyAnswer,
): AsyncGenerator<unknown[]> {
  const guard = new PageLoopGuard();
  let answer = first;
  for (let page = 1; ; page++) {
    if (!Array.isArray(answer.body)) {
      const notList = new ProtocolError(
        answer.status,
        `page ${page} of ${spec.path} is not a JSON array; --paginate follows lists`,
      );
      // Past the first page, the list printed so far is incomplete: said as for any failure.
      throw page === 1 ? notList : new PageFailure(notList, page);
    }
    yield answer.body;
    guard.fetched(answer.url, answer.body.length);
    const next = answer.next;
    if (next === undefined || ctx.io.stdoutClosed()) return;
    if (next instanceof BrokenLink)
      throw new PageFailure(brokenLinkError(next, answer.status, page), page + 1);
    try {
      guard.follow(next, 'Report this to the service; Ctrl-C or | head stops the walk.');
      answer = await client.request({
        method: 'GET',
        path: spec.path,
        url: next,
        headers: spec.headers,
      });
    } catch (error) {
      if (error instanceof PetstoreError) throw new PageFailure(error, page + 1);
      throw error;
    }
    if (spec.include) include(ctx, answer);
  }
}

export async function runApi(
  ctx: RunOutput & RunServices & RunState,
  options: ApiOptions,
): Promise<void> {
  // A PATH may be a whole URL, credentials and all: none of them is ever printed.
  for (const secret of credentialSecrets(options.path)) ctx.protectSecret(secret, { hidden: true });
  const spec = await toApiSpec(options.path, options.flags, ctx.io);
  // And the path as built: fields (-f) become the query of a GET (`access_token=…`).
  for (const secret of credentialSecrets(spec.path)) ctx.protectSecret(secret, { hidden: true });
  const client = await ctx.client();
  const write = isSafeMethod(spec.method)
    ? {}
    : { idempotencyKey: spec.idempotencyKey ?? randomUUID() };
  const request = { method: spec.method, path: spec.path, headers: spec.headers, body: spec.body };
  if (spec.dryRun) {
    ctx.printRequest(client.previewRequest(request, write));
    return;
  }
  if (spec.include) {
    // An error answer's status and headers too (WWW-Authenticate, Retry-After matter most then).
    return runApiRequest(ctx, client, spec, request, write).catch((error: unknown) => {
      const answered = answeredError(error);
      if (answered) include(ctx, answered);
      throw error;
    });
  }
  return runApiRequest(ctx, client, spec, request, write);
}

/**
 * A POST that -f/-F made, refused by the service (4xx): said with the way to send the fields as
 * a GET's query instead, as gh api users expect to need at times.
 */
function fieldsWentInTheBody(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status < 400 || error.status > 499) return error;
  if (error.status === 401 || error.status === 403) return error;
  return new ApiError(error.status, error.code, error.message, {
    hint: 'The -f/-F fields made this a POST, sent in its JSON body; to send them as query parameters instead, add -X GET.',
    requestId: error.requestId,
    headers: error.headers,
    cause: error,
  });
}

/** The ApiError an error holds (itself, or the cause of an unknown outcome), if it has one. */
function answeredError(error: unknown): ApiError | undefined {
  for (let at: unknown = error; at instanceof Error; at = at.cause) {
    if (at instanceof ApiError) return at;
  }
  return undefined;
}

async function runApiRequest(
  ctx: RunOutput & RunServices & RunState,
  client: PetstoreClient,
  spec: ApiSpec,
  request: AnyRequest,
  write: WriteOptions,
): Promise<void> {
  if (isSafeMethod(spec.method)) {
    const answer = await client.request(request, write);
    if (spec.include) include(ctx, answer);
    if (spec.paginate) {
      const progress = ctx.progressLine({ interruptible: true });
      let items = 0;
      let page = 0;
      const counted = async function* (source: AsyncIterable<unknown[]>) {
        for await (const batch of source) {
          items += batch.length;
          page++;
          progress.update(() => `items ${count(items)} · pages ${count(page)}`);
          yield batch;
        }
      };
      await printPages(ctx, counted(pages(ctx, client, spec, answer))).finally(() =>
        progress.done(),
      );
    } else await printBody(ctx, answer, spec.raw);
    return;
  }
  const unknown = {
    what: 'it may or may not have taken effect',
    hint: `Send it again with the same key: petstore api -X ${spec.method} ... --idempotency-key KEY`,
  };
  const replayed = {
    ...write,
    onReplayed: () =>
      ctx.notice(
        'The service had already received this request (same Idempotency-Key): this is its answer from then, not a new one.',
      ),
  };
  const { result, interrupted } = await finishWrite(
    ctx,
    () => client.request(request, replayed),
    unknown,
    write.idempotencyKey!,
  ).catch((error: unknown) => {
    throw spec.fieldsMadePost ? fieldsWentInTheBody(error) : error;
  });
  if (spec.include) include(ctx, result);
  await printBody(ctx, result, spec.raw);
  if (interrupted)
    endInterrupted(interrupted, `${spec.method} ${spec.path} was answered ${result.status}`);
}

export function registerApi(program: Command, runVerb: RunVerb): void {
  const { command, fields } = declareApi(program);
  command.action((path, flags) =>
    runVerb(command, () => ({ path, flags: { ...flags, fields } }), runApi),
  );
}
