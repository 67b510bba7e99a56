import { beforeAll, describe, expect, it } from 'vitest';
import { answerParts } from '../../src/connect/answer-parts.ts';
import { warmNameSearch, type WarmUpLimits } from '../../src/connect/warm-up.ts';
import { composeConnectRecommendations } from '../../src/content/connect/recommendations.ts';
import type { FoundProfile } from '../../src/connect/requests.ts';
import { RecommendationsCache } from '../../src/content/connect/recommendations-cache.ts';
import { loadContent } from '../../src/content/load-content.ts';
import { personalityView } from '../../src/personality/views.ts';
import { useTestDb } from '../helpers/db.ts';

/**
 * The name search's warm-up (src/connect/warm-up.ts) runs what a synchronous search by name runs
 * before its answer is sent: the criteria read, the profile resolved as the route resolves it,
 * and the answer's parts (the personality view and the recommendations) for each person found;
 * nobody found, an ambiguous name or a person without a personality builds no answer.
 */
const testDb = useTestDb();
const content = loadContent();
const recommendations = new RecommendationsCache(() => content);
// Fewer people than a round and than the least searches: it searches every name once.
const LIMITS: WarmUpLimits = { minSearches: 1000, maxSearches: 100, maxMs: 60_000, roundSize: 500, steadyRounds: 2, steadyShare: 0.05 };
const estimateOf = (n: number) => ({
  scores: { extraversion: n / 10 - 0.3, agreeableness: 0.2 - n / 20, conscientiousness: 0.1, openness: -0.2, neuroticism: 0 },
  confidence: { extraversion: 0.5, agreeableness: 0.5, conscientiousness: 0.4, openness: 0.4, neuroticism: 0.3 },
  source: 'prediction',
  modelVersion: 'warm',
  wordCount: 120,
});

beforeAll(async () => {
  const people: Array<[string, string, string, ReturnType<typeof estimateOf> | null]> = [
    ['per_a1', 'Ada', 'Lovelace', estimateOf(1)],
    ['per_a2', 'Grace', 'Hopper', estimateOf(2)],
    ['per_a3', 'Alan', 'Turing', estimateOf(3)],
    // Two people of one name: ambiguous, no answer.
    ['per_a4', 'Sam', 'Smith', estimateOf(4)],
    ['per_a5', 'Sam', 'Smith', estimateOf(5)],
    // Found, but no personality to answer with.
    ['per_a6', 'Edsger', 'Dijkstra', null],
  ];
  for (const [id, first, last, estimate] of people) {
    await testDb.db.query(
      'INSERT INTO people (id, public_id, first_name, last_name, email, email_normalized, title, estimate) VALUES ($1, $2, $3, $4, $5, $5, $6, $7)',
      [id, `pp_${id}`, first, last, `${id}@example.com`, 'Engineer', estimate === null ? null : JSON.stringify(estimate)],
    );
  }
});

describe('the name search warm-up builds the answers of the people it finds', () => {
  it('resolves each stored name as the route does and builds the answer of each person found with a personality', async () => {
    const answered: FoundProfile[] = [];
    const result = await warmNameSearch(testDb.db, recommendations, new AbortController().signal, LIMITS, (profile) => answered.push(profile));
    expect(result).toMatchObject({ searches: 6, ended: 'names used up' });
    expect(answered.map((p) => [p.personId, p.firstName, p.lastName, p.title, p.hasAssessment]).sort()).toEqual([
      ['per_a1', 'Ada', 'Lovelace', 'Engineer', false],
      ['per_a2', 'Grace', 'Hopper', 'Engineer', false],
      ['per_a3', 'Alan', 'Turing', 'Engineer', false],
    ]);
    // The estimate the answer is written from, as stored.
    expect(answered.find((p) => p.personId === 'per_a2')?.estimate.scores).toEqual(estimateOf(2).scores);
  });

  it('builds the parts the route answers from (answerParts, which toC2 calls): the view and the recommendations for the person found', async () => {
    const answered: FoundProfile[] = [];
    await warmNameSearch(testDb.db, recommendations, new AbortController().signal, LIMITS, (profile) => answered.push(profile));
    const profile = answered[0];
    if (!profile) throw new Error('no answer built');
    const parts = answerParts(profile, recommendations);
    expect(parts.view).toEqual(personalityView(profile.estimate));
    expect(parts.view.discType).toMatch(/^[DISC][disc]?$/);
    // Written for this person: their first name and title reach the recommendations.
    expect(parts.recommendations).toEqual(composeConnectRecommendations({ firstName: profile.firstName, estimate: profile.estimate, title: 'Engineer' }, content));
    expect(parts.recommendations).not.toEqual(composeConnectRecommendations({ firstName: 'Somebody', estimate: profile.estimate, title: 'Engineer' }, content));
    expect(parts.recommendations.overview.length).toBeGreaterThan(0);
  });

  it('stops before its first search when the service is already closing', async () => {
    const closing = new AbortController();
    closing.abort();
    const answered: FoundProfile[] = [];
    expect(await warmNameSearch(testDb.db, recommendations, closing.signal, LIMITS, (profile) => answered.push(profile))).toMatchObject({ searches: 0, ended: 'stopped' });
    expect(answered).toEqual([]);
  });
});
