/**
 * How individual the advice is: over pairs of people of the same DISC type, the share of
 * advice sentences the two have in common. Used by the content tests (which hold it under the
 * target) and by `npm run advice-overlap` (which prints it). Pure and deterministic.
 */
import { pointToType } from '../personality/circle.ts';
import { TRAITS, type TraitEstimate, type TraitScores } from '../personality/types.ts';
import { evidenceWeight } from '../personality/shrink.ts';
import { personalityView } from '../personality/views.ts';
import { seededRandom } from '../shared/random.ts';
import { describePersonality } from './describe.ts';
import type { PhraseLibrary, Section } from './phrases.ts';

/** The sentences of an A1 answer (`profile.overview`, seven phrase blocks, do and don't). */
export const API_SECTIONS: readonly Section[] = [
  'overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling', 'working_together', 'do', 'dont',
];
/** The profile page adds emailing and building trust. */
export const PAGE_SECTIONS: readonly Section[] = [...API_SECTIONS, 'emailing', 'building_trust'];

/** Two estimates this close on every trait are the same person for this measure. */
export const NEARLY_IDENTICAL = 0.1;

export interface OverlapPerson {
  label: string;
  estimate: TraitEstimate;
  title?: string | null;
}

export interface OverlapReport {
  people: number;
  /** Same-type pairs measured (nearly identical estimates left out). */
  pairs: number;
  /** Same-type pairs left out as nearly identical. */
  identicalPairs: number;
  /** Mean, median and 90th percentile of the shared share, 0–1. */
  mean: number;
  median: number;
  p90: number;
  /** Share of pairs sharing half their sentences or more. */
  atOrAboveHalf: number;
  /** Distinct sentences over all people, and all sentences. */
  distinct: number;
  total: number;
  /** The pair sharing most, for the report. */
  worst: { a: string; b: string; share: number } | null;
}

/** The person's advice sentences, nameless so that only the advice is compared. */
export function adviceSentences(phrases: PhraseLibrary, person: OverlapPerson, sections: readonly Section[] = API_SECTIONS): string[] {
  const { content } = describePersonality(phrases, person.estimate, null, { title: person.title ?? null });
  return sections.flatMap((section) => content[section]);
}

function nearlyIdentical(a: TraitScores, b: TraitScores): boolean {
  return TRAITS.every((trait) => Math.abs(a[trait] - b[trait]) < NEARLY_IDENTICAL);
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? 0;
}

/**
 * Shared share of a pair: sentences in both over the sentences of the shorter profile (so a
 * profile wholly contained in another counts as 100 %, not diluted by the longer one).
 */
export function measureOverlap(phrases: PhraseLibrary, people: readonly OverlapPerson[], sections: readonly Section[] = API_SECTIONS): OverlapReport {
  const described = people.map((person) => {
    const sentences = adviceSentences(phrases, person, sections);
    const view = personalityView(person.estimate);
    return { person, sentences, set: new Set(sentences), type: pointToType(view.point) };
  });
  const shares: number[] = [];
  let identicalPairs = 0;
  let worst: OverlapReport['worst'] = null;
  for (let i = 0; i < described.length; i++) {
    for (let j = i + 1; j < described.length; j++) {
      const a = described[i];
      const b = described[j];
      if (a === undefined || b === undefined || a.type !== b.type) continue;
      if (nearlyIdentical(a.person.estimate.scores, b.person.estimate.scores)) {
        identicalPairs++;
        continue;
      }
      let shared = 0;
      for (const sentence of a.set) if (b.set.has(sentence)) shared++;
      const share = shared / Math.max(1, Math.min(a.set.size, b.set.size));
      shares.push(share);
      if (worst === null || share > worst.share) worst = { a: a.person.label, b: b.person.label, share };
    }
  }
  const sorted = [...shares].sort((x, y) => x - y);
  const all = described.flatMap((d) => d.sentences);
  return {
    people: people.length,
    pairs: shares.length,
    identicalPairs,
    mean: shares.reduce((sum, s) => sum + s, 0) / Math.max(1, shares.length),
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    atOrAboveHalf: shares.filter((s) => s >= 0.5).length / Math.max(1, shares.length),
    distinct: new Set(all).size,
    total: all.length,
    worst,
  };
}

/** Titles for the generated people: every role family, a few that fit none, and no title. */
const TITLES: readonly (string | null)[] = [
  'Account Executive', 'Sales Development Representative', 'Regional Sales Manager', 'Marketing Manager', 'Content Strategist',
  'Software Engineer', 'Senior Backend Developer', 'DevOps Engineer', 'Data Analyst', 'Data Scientist', 'Product Designer',
  'UX Researcher', 'Engineering Manager', 'Head of Operations', 'Chief Executive Officer', 'Financial Controller', 'Accountant',
  'HR Business Partner', 'Talent Acquisition Specialist', 'Operations Coordinator', 'Project Manager', 'Customer Success Manager',
  'Support Specialist', 'Pharmacist', 'Lawyer', null, null,
];

/**
 * `count` people with seeded random estimates: traits spread over [-1, 1] as the model's
 * scores are over the reference population; confidence as text predictions give it (10–21,
 * from short to long texts) for three in four, and a personality test's 100 for the rest.
 */
export function generatedPeople(count = 200, seed = 12): OverlapPerson[] {
  const random = seededRandom(seed);
  const score = (): number => Math.round((random() * 2 - 1) * 1000) / 1000;
  return Array.from({ length: count }, (_, i) => {
    const assessed = random() < 0.25;
    const confidence = assessed ? 1 : 0.1 + random() * 0.11;
    const wordCount = assessed ? 0 : Math.round(60 + random() * 600);
    // A text's reading is shrunk by its evidence as analyzeText does it; a test is measured.
    const kept = assessed ? 1 : evidenceWeight(wordCount);
    const scores: TraitScores = {
      extraversion: kept * score(), agreeableness: kept * score(), conscientiousness: kept * score(), openness: kept * score(), neuroticism: kept * score(),
    };
    const title = TITLES[Math.floor(random() * TITLES.length)] ?? null;
    const estimate: TraitEstimate = {
      scores,
      confidence: { extraversion: confidence, agreeableness: confidence, conscientiousness: confidence, openness: confidence, neuroticism: confidence },
      source: assessed ? 'assessment' : 'prediction',
      modelVersion: 'generated',
      wordCount,
    };
    return { label: `generated-${i + 1}`, estimate, title };
  });
}
