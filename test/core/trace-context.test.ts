import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  inTrace,
  newTrace,
  parseTraceparent,
  traceOfEnv,
  TraceHeaders,
} from '../../src/core/trace-context.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('W3C trace context', () => {
  it.each([
    [`00-${TRACE}-${SPAN}-01`, { traceId: TRACE, flags: '01' }],
    [` 00-${TRACE}-${SPAN}-00 `, { traceId: TRACE, flags: '00' }],
    // A later version may carry more fields after the four it shares with 00.
    [`01-${TRACE}-${SPAN}-01-more`, { traceId: TRACE, flags: '01' }],
  ])('reads %j', (text, trace) => {
    expect(parseTraceparent(text)).toEqual({ ...trace, state: undefined });
  });

  it.each([
    undefined,
    '',
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    `ff-${TRACE}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01-more`,
    `00-${TRACE}-${SPAN}`,
  ])('refuses %j (a new trace is used instead)', (text) => {
    expect(parseTraceparent(text)).toBeUndefined();
    const trace = traceOfEnv({ TRACEPARENT: text });
    expect(trace.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(trace.traceId).not.toBe(TRACE);
  });

  it('gives each request its own span of the trace, with the state passed on', () => {
    const headers = new TraceHeaders(
      traceOfEnv({ TRACEPARENT: `00-${TRACE}-${SPAN}-01`, TRACESTATE: 'ci=1' }),
    );
    const spans = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const sent = headers.next();
      const parsed = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(sent.traceparent!);
      expect(parsed?.[1]).toBe(TRACE);
      expect(parsed?.[2]).not.toBe(SPAN);
      expect(sent.tracestate).toBe('ci=1');
      spans.add(parsed![2]!);
    }
    expect(spans.size).toBe(1000);
  });

  it("a call's own trace is the trace of its requests, and only of them", async () => {
    const headers = new TraceHeaders(newTrace());
    const run = headers.current().traceId;
    const call = parseTraceparent(`00-${TRACE}-${SPAN}-01`);
    const inCall = await inTrace(call, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return headers.next().traceparent;
    });
    expect(inCall).toContain(`-${TRACE}-`);
    expect(headers.next().traceparent).toContain(`-${run}-`);
  });

  it('never reads anything but a valid trace, whatever the text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const trace = parseTraceparent(text);
        if (trace !== undefined) expect(trace.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
      }),
    );
  });
});
