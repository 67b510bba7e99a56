/**
 * Interleaved rounds for the HTTP benches: every step (the bare server, then each route) is
 * measured once per round, round after round, so each step's figures come from the same minutes
 * as the bare server's. A step is summed up by the middle of its rounds, and its ratio to bare is
 * the ratio of the two middles: one slow or fast round (a burst of load from elsewhere on a
 * shared machine) moves neither. The spread says how far the rounds went apart.
 */

/** The middle value (the upper one of the two middles for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

export interface StepFigures {
  /** Requests a second, one a round. */
  rps: number[];
  /** The server process's CPU a request (all its threads), µs, one a round. */
  cpuUs: number[];
  /** Answers other than 2xx and socket errors, over all rounds. */
  failed: number;
}

export interface StepSummary {
  rps: number;
  minRps: number;
  maxRps: number;
  cpuUs: number;
  /** The ratio of medians: this step's middle req/s over the bare server's. */
  ratio: number;
  /** Lowest and highest of the per-round ratios (each round's figure over that round's bare). */
  minRatio: number;
  maxRatio: number;
}

export function summarizeStep(step: StepFigures, bare: StepFigures): StepSummary {
  const perRound = step.rps.map((rps, round) => rps / (bare.rps[round] ?? Number.NaN));
  return {
    rps: median(step.rps),
    minRps: Math.min(...step.rps),
    maxRps: Math.max(...step.rps),
    cpuUs: median(step.cpuUs),
    ratio: median(step.rps) / median(bare.rps),
    minRatio: Math.min(...perRound),
    maxRatio: Math.max(...perRound),
  };
}

/** `1,234 req/s (rounds 1,100–1,300)`, ` 0.52 × bare (rounds 0.49–0.55)`, ` 103 µs of server CPU a request`. */
export function describeStep(summary: StepSummary, withRatio: boolean): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const parts = [`${n(summary.rps)} req/s (rounds ${n(summary.minRps)}–${n(summary.maxRps)})`];
  if (withRatio) parts.push(`${summary.ratio.toFixed(2)} × bare (rounds ${summary.minRatio.toFixed(2)}–${summary.maxRatio.toFixed(2)})`);
  parts.push(`${n(summary.cpuUs)} µs of server CPU a request`);
  return parts.join(', ');
}

/**
 * Runs `measure` for every step, `rounds` times over in the steps' order (bare first), and
 * returns each step's figures.
 */
export async function interleave<S>(
  steps: readonly S[],
  rounds: number,
  measure: (step: S) => Promise<{ rps: number; cpuUs: number; failed: number }>,
): Promise<Map<S, StepFigures>> {
  const figures = new Map<S, StepFigures>(steps.map((step) => [step, { rps: [], cpuUs: [], failed: 0 }]));
  for (let round = 0; round < rounds; round += 1) {
    for (const step of steps) {
      const figure = await measure(step);
      const kept = figures.get(step);
      if (!kept) continue;
      kept.rps.push(figure.rps);
      kept.cpuUs.push(figure.cpuUs);
      kept.failed += figure.failed;
    }
  }
  return figures;
}
