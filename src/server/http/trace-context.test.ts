import { describe, expect, it } from 'vitest';
import { traceContextOf } from './trace-context';

// W3C Trace Context: a valid traceparent is continued with the portal's own span, anything else
// begins a new trace.

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('the trace context of a request', () => {
  it('continues a valid traceparent with a new span of its own, the sampled flag kept', () => {
    const trace = traceContextOf(`00-${traceId}-00f067aa0ba902b7-01`);
    expect(trace.traceId).toBe(traceId);
    expect(trace.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(trace.spanId).not.toBe('00f067aa0ba902b7');
    expect(trace.traceparent).toBe(`00-${traceId}-${trace.spanId}-01`);
    expect(traceContextOf(`00-${traceId}-00f067aa0ba902b7-00`).flags).toBe('00');
    // A later version's extra fields are allowed; its flags other than sampled are cleared.
    expect(traceContextOf(`01-${traceId}-00f067aa0ba902b7-03-more`).traceparent).toMatch(
      new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`),
    );
  });

  it('begins a new trace for a missing or invalid one', () => {
    for (const header of [
      undefined,
      '',
      'nonsense',
      `ff-${traceId}-00f067aa0ba902b7-01`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${traceId}-00f067aa0ba902b7-01-extra`,
    ]) {
      const trace = traceContextOf(header);
      expect(trace.traceId, String(header)).toMatch(/^[0-9a-f]{32}$/);
      expect(trace.traceId).not.toBe(traceId);
      expect(trace.traceparent).toBe(`00-${trace.traceId}-${trace.spanId}-00`);
    }
    expect(traceContextOf(undefined).traceId).not.toBe(traceContextOf(undefined).traceId);
  });
});
