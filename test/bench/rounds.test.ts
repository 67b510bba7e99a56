import { describe, expect, it } from 'vitest';
import { describeStep, interleave, median, summarizeStep } from '../../bench/rounds.ts';

// bench/http.ts judged a route against ONE round of the bare server, whose figure swung 22k–44k
// req/s between runs; these pin how the interleaved rounds are run and summed up instead.
describe('interleaved bench rounds', () => {
  it('measures every step once per round, bare first, round after round', async () => {
    const order: string[] = [];
    const figures = await interleave(['bare', 'usage', 'text'], 3, async (step) => {
      order.push(step);
      return { rps: order.length, cpuUs: 10, failed: step === 'text' ? 1 : 0 };
    });
    expect(order).toEqual(['bare', 'usage', 'text', 'bare', 'usage', 'text', 'bare', 'usage', 'text']);
    expect(figures.get('bare')?.rps).toEqual([1, 4, 7]);
    expect(figures.get('text')?.failed).toBe(3);
  });

  it('judges a step by the ratio of middles, so one odd bare round moves nothing', () => {
    const bare = { rps: [40_000, 20_000, 21_000], cpuUs: [40, 45, 44], failed: 0 };
    const usage = { rps: [11_000, 10_000, 10_400], cpuUs: [100, 104, 110], failed: 0 };
    const summary = summarizeStep(usage, bare);
    expect(summary.rps).toBe(10_400);
    expect(summary.ratio).toBeCloseTo(10_400 / 21_000, 10);
    expect(summary.cpuUs).toBe(104);
    expect([summary.minRps, summary.maxRps]).toEqual([10_000, 11_000]);
    // Per-round ratios: 0.275, 0.5, 0.495…
    expect(summary.minRatio).toBeCloseTo(0.275, 10);
    expect(summary.maxRatio).toBeCloseTo(0.5, 10);
    expect(describeStep(summary, true)).toBe('10,400 req/s (rounds 10,000–11,000), 0.50 × bare (rounds 0.28–0.50), 104 µs of server CPU a request');
    expect(describeStep(summarizeStep(bare, bare), false)).toBe('21,000 req/s (rounds 20,000–40,000), 44 µs of server CPU a request');
  });

  it('takes the middle value', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([5, 1, 4, 2, 3])).toBe(3);
    expect(median([])).toBeNaN();
  });
});
