import { AsyncLocalStorage } from 'node:async_hooks';
import { randomHex } from './random-hex.js';

/**
 * W3C Trace Context, passive: every request carries a `traceparent` whose trace is the run's
 * (the CI step's TRACEPARENT, an agent's tool call `_meta.traceparent`, else a new one) and
 * whose span is its own, so a service's logs, the history and the run can be joined. Nothing
 * is exported anywhere: petstore records no spans, it only passes the trace on.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** The trace flags of the parent (`01`: sampled), passed on as they came. */
  flags: string;
  /** TRACESTATE as given, passed on unchanged. */
  state?: string | undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * A traceparent as the W3C spec reads it: version 00 exactly four fields; a later version
 * (not ff) may carry more after them. Ids all zero, or upper case, make it invalid: undefined.
 */
export function parseTraceparent(
  text: string | undefined,
  state?: string,
): TraceContext | undefined {
  const found = TRACEPARENT.exec(text?.trim() ?? '');
  if (found === null) return undefined;
  const [, version, traceId, spanId, flags, more] = found as unknown as string[];
  if (version === 'ff' || (version === '00' && more !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const kept = state?.trim();
  return { traceId: traceId!, flags: flags!, state: kept === '' ? undefined : kept };
}

/** A new trace, not sampled: petstore decides no sampling of its own. */
export function newTrace(): TraceContext {
  let traceId = randomHex(16);
  while (traceId === ZERO_TRACE) traceId = randomHex(16);
  return { traceId, flags: '00' };
}

/** The trace of the run: TRACEPARENT (and TRACESTATE) from the environment, else a new one. */
export function traceOfEnv(env: Readonly<Record<string, string | undefined>>): TraceContext {
  return parseTraceparent(env.TRACEPARENT, env.TRACESTATE) ?? newTrace();
}

const withinCall = new AsyncLocalStorage<TraceContext>();

/** Runs `work` with its requests in `trace` (an agent's tool call that named its own). */
export function inTrace<T>(trace: TraceContext | undefined, work: () => T): T {
  return trace === undefined ? work() : withinCall.run(trace, work);
}

/**
 * The headers of one request: its own span in the trace of the call it is made in, else the
 * run's. Span ids are a random start of this process and a count: unique, and cheap enough for
 * every record of a bulk run.
 */
export class TraceHeaders {
  private readonly spanStart = randomHex(4);
  private spans = 0;

  constructor(private readonly run: TraceContext) {}

  /** The trace the next request is in. */
  current(): TraceContext {
    return withinCall.getStore() ?? this.run;
  }

  next(): Record<string, string> {
    const trace = this.current();
    this.spans = (this.spans + 1) % 0x1_0000_0000;
    const span = `${this.spanStart}${this.spans.toString(16).padStart(8, '0')}`;
    const headers: Record<string, string> = {
      traceparent: `00-${trace.traceId}-${span}-${trace.flags}`,
    };
    if (trace.state !== undefined) headers.tracestate = trace.state;
    return headers;
  }
}
