import type { Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { personalityView } from '../personality/views.ts';

/** Below this many other takers on the service, a standing among them says too little (and too much about each). */
export const STANDING_MINIMUM = 30;
/** The most recent results a standing is counted against, so a page view stays cheap on a large service. */
const STANDING_SAMPLE = 5000;

export const STANDING_SCALES = ['d', 'i', 's', 'c', 'intensity', 'conscientiousness', 'openness'] as const;
export type StandingScale = (typeof STANDING_SCALES)[number];

export interface Standing {
  /** How many other results the percentages are of. */
  others: number;
  /** Per scale, the share (0–100) of the others this result is higher than, ties counted half. */
  higherThan: Record<StandingScale, number>;
}

function valuesOf(estimate: TraitEstimate): Record<StandingScale, number> {
  const view = personalityView(estimate);
  return {
    d: view.discPercentages.d,
    i: view.discPercentages.i,
    s: view.discPercentages.s,
    c: view.discPercentages.c,
    intensity: view.discIntensity,
    conscientiousness: estimate.scores.conscientiousness,
    openness: estimate.scores.openness,
  };
}

/**
 * Where a result stands among this service's other test results (every user's: the test is the
 * same for all), on each scale the result page shows; null while there are fewer than
 * STANDING_MINIMUM others. Counted on the most recent STANDING_SAMPLE results.
 */
export async function takerStanding(db: Queryable, resultId: string, estimate: TraitEstimate): Promise<Standing | null> {
  const rows = await db.query<{ estimate: TraitEstimate }>(
    'SELECT estimate FROM assessments WHERE id <> $1 ORDER BY created_at DESC, id DESC LIMIT $2',
    [resultId, STANDING_SAMPLE],
  );
  if (rows.length < STANDING_MINIMUM) return null;
  const own = valuesOf(estimate);
  const below = Object.fromEntries(STANDING_SCALES.map((scale) => [scale, 0])) as Record<StandingScale, number>;
  for (const row of rows) {
    const other = valuesOf(row.estimate);
    for (const scale of STANDING_SCALES) {
      if (other[scale] < own[scale]) below[scale] += 1;
      else if (other[scale] === own[scale]) below[scale] += 0.5;
    }
  }
  const higherThan = Object.fromEntries(STANDING_SCALES.map((scale) => [scale, Math.round((100 * below[scale]) / rows.length)])) as Record<StandingScale, number>;
  return { others: rows.length, higherThan };
}
