/**
 * The hand-kept request-duration histogram (server/request-duration.ts) as Prometheus reads it
 * through prom-client's registry: cumulative buckets whose bound is inclusive, +Inf, sum and
 * count per label set.
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurationHistogram } from '../../server/request-duration.ts';

async function exposition(observations: [string, string, number, number][]) {
  const registry = new Registry();
  const histogram = new RequestDurationHistogram({
    name: 'test_seconds',
    help: 'Test.',
    buckets: [0.1, 0.01, 1],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of observations) histogram.observe(method, route, status, seconds);
  return { text: await registry.metrics(), registry };
}

describe('request duration histogram', () => {
  it('writes cumulative buckets (bounds inclusive, sorted), +Inf, sum and count per method, route and status', async () => {
    const { text } = await exposition([
      ['GET', '/a', 200, 0.005],
      ['GET', '/a', 200, 0.01],
      ['GET', '/a', 200, 0.5],
      ['GET', '/a', 200, 3],
      ['GET', '/a', 404, 0.2],
      ['POST', '/a', 200, 0.05],
    ]);
    const lines = text.split('\n');
    expect(lines).toContain('# TYPE test_seconds histogram');
    const ok = 'method="GET",route="/a",status="200"';
    for (const [le, count] of [
      ['0.01', 2],
      ['0.1', 2],
      ['1', 3],
      ['+Inf', 4],
    ] as const) {
      expect(lines).toContain(`test_seconds_bucket{le="${le}",${ok}} ${count}`);
    }
    expect(lines).toContain(`test_seconds_count{${ok}} 4`);
    expect(lines.find((line) => line.startsWith(`test_seconds_sum{${ok}}`))).toBe(`test_seconds_sum{${ok}} 3.515`);
    expect(lines).toContain('test_seconds_count{method="GET",route="/a",status="404"} 1');
    expect(lines).toContain('test_seconds_bucket{le="0.1",method="POST",route="/a",status="200"} 1');
  });

  it('skips a duration that is no number, and forgets everything on reset', async () => {
    const { text, registry } = await exposition([
      ['GET', '/a', 200, Number.NaN],
      ['GET', '/b', 200, 0.5],
    ]);
    expect(text).not.toContain('route="/a"');
    expect(text).toContain('test_seconds_count{method="GET",route="/b",status="200"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('route="/b"');
  });
});
