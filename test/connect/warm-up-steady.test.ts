import { describe, expect, it } from 'vitest';
import { SteadyCost } from '../../src/connect/warm-up.ts';

/** When the warm-up calls a search's cost steady (src/connect/warm-up.ts): round by round, past its least searches. */
const limits = { minSearches: 1000, steadyRounds: 2, steadyShare: 0.1 };
const roundsUntilSteady = (costs: number[]) => {
  const rounds = new SteadyCost(limits);
  const index = costs.findIndex((cost, i) => rounds.add(cost, (i + 1) * 250));
  return index === -1 ? null : index + 1;
};

describe('the warm-up tells a steady cost', () => {
  it('goes on while each round is cheaper than the best by more than a tenth', () => {
    expect(roundsUntilSteady([3000, 2000, 1500, 1200, 1000, 850, 700, 600])).toBeNull();
  });

  it('stops after two rounds in a row that are not, once past its least searches', () => {
    // Flat from the second round: rounds 2 and 3 are not cheaper, but only 750 searches are done.
    expect(roundsUntilSteady([1000, 1000, 990, 1010, 1000])).toBe(4);
    // Noise that sometimes falls keeps it going until two rounds in a row do not (1300, then 960: not under 900).
    expect(roundsUntilSteady([3000, 2000, 1900, 1500, 1450, 1000, 1300, 960, 950])).toBe(8);
  });

  it('remembers the last round', () => {
    const rounds = new SteadyCost(limits);
    rounds.add(1234.4, 250);
    expect(rounds.last).toBe(1234);
  });
});
