/**
 * What, beyond the point on the DISC circle, makes advice fit one person: how much evidence the
 * profile rests on, the three traits the circle does not show (openness, conscientiousness,
 * neuroticism), and the family of their role. Pure; every threshold is documented in
 * src/content/README.md ("Evidence, traits and roles").
 */
import type { TraitScores } from '../personality/types.ts';

/**
 * Below this confidence (0–100) the evidence is thin: the profile reads as a blend, opens by
 * saying the picture is tentative, and no pronounced-trait phrase is used. With the text model
 * of this version that is roughly under 150 words (full essays reach about 20).
 */
export const TENTATIVE_CONFIDENCE = 15;
/**
 * Emphatic wording ("strongly marked") needs this much confidence: a personality test, or a
 * text model far more reliable than today's, whose full-essay confidence is about 20.
 */
export const EMPHATIC_CONFIDENCE = 50;
/** Phrases with minIntensity at or above this are pronounced-trait (emphatic) phrases. */
export const EMPHATIC_INTENSITY = 70;

export const EVIDENCE_LEVELS = ['thin', 'moderate', 'strong'] as const;
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];

/** Confidence left out (older callers) counts as strong: the behaviour before evidence levels. */
export function evidenceLevel(confidence: number | undefined): EvidenceLevel {
  if (confidence === undefined || !Number.isFinite(confidence)) return 'strong';
  if (confidence < TENTATIVE_CONFIDENCE) return 'thin';
  return confidence < EMPHATIC_CONFIDENCE ? 'moderate' : 'strong';
}

/**
 * The intensity phrases are selected at: the measured one, capped where the evidence cannot
 * carry it. Thin evidence reads as a blend (below rank.ts BLEND_INTENSITY); moderate evidence
 * stops short of the pronounced-trait phrases. The intensity shown is the estimate's, already
 * shrunk by its evidence (personality/shrink.ts); this cap applies to phrase choice only.
 */
export function selectionIntensity(intensity: number, level: EvidenceLevel): number {
  if (level === 'thin') return Math.min(intensity, 29);
  if (level === 'moderate') return Math.min(intensity, EMPHATIC_INTENSITY - 1);
  return intensity;
}

/** The traits the DISC point leaves out; phrases can be written for their high or low end. */
export const OTHER_TRAITS = ['openness', 'conscientiousness', 'neuroticism'] as const;
export type OtherTrait = (typeof OTHER_TRAITS)[number];
/**
 * A trait's end, and how clearly: a phrase written for "high" fits everyone at the high end,
 * one written for "very high" only those clearly there, who get it before the general one.
 * "Slightly" high or low is a lean short of a marked level: its phrases are tentative ("may",
 * "seems") and fit only the lean, not the marked levels beyond it.
 */
export const TRAIT_LEVELS = ['very high', 'high', 'slightly high', 'slightly low', 'low', 'very low'] as const;
export type TraitLevel = (typeof TRAIT_LEVELS)[number];

/**
 * A trait is high or low when its score is at least this far from the population average
 * (scores run from -1 to 1 and spread evenly over the reference population, so about a third
 * of people are high, a third low, a third neither). Predicted scores are already pulled
 * toward 0 for short texts, so thin evidence rarely reaches a level.
 */
export const TRAIT_LEVEL_THRESHOLD = 0.3;
/** From here on a trait is "very" high or low (about two people in five). */
export const TRAIT_CLEAR_THRESHOLD = 0.6;
/**
 * From here to TRAIT_LEVEL_THRESHOLD a trait leans ("slightly high" or "low"). Text scores are
 * shrunk by their evidence (personality/shrink.ts): a 200-word text keeps about 40 % of its
 * reading, so a reading of 0.4 to 0.75 shows here. The lean says which way the text points,
 * in tentative phrases, without claiming a marked trait the evidence cannot carry.
 */
export const TRAIT_LEAN_THRESHOLD = 0.15;

export type TraitLevels = Partial<Record<OtherTrait, TraitLevel>>;

/** On thin evidence only the general ("tends to") phrases of a trait are used, never the "very" ones. */
export function hedgedLevels(levels: TraitLevels, level: EvidenceLevel): TraitLevels {
  if (level !== 'thin') return levels;
  const hedged: TraitLevels = {};
  for (const trait of OTHER_TRAITS) {
    const value = levels[trait];
    if (value !== undefined) hedged[trait] = value === 'very high' ? 'high' : value === 'very low' ? 'low' : value;
  }
  return hedged;
}

export function traitLevels(scores: Partial<TraitScores> | undefined): TraitLevels {
  const levels: TraitLevels = {};
  if (scores === undefined) return levels;
  for (const trait of OTHER_TRAITS) {
    const score = scores[trait];
    if (score === undefined || !Number.isFinite(score)) continue;
    if (score >= TRAIT_CLEAR_THRESHOLD) levels[trait] = 'very high';
    else if (score >= TRAIT_LEVEL_THRESHOLD) levels[trait] = 'high';
    else if (score <= -TRAIT_CLEAR_THRESHOLD) levels[trait] = 'very low';
    else if (score <= -TRAIT_LEVEL_THRESHOLD) levels[trait] = 'low';
    else if (score >= TRAIT_LEAN_THRESHOLD) levels[trait] = 'slightly high';
    else if (score <= -TRAIT_LEAN_THRESHOLD) levels[trait] = 'slightly low';
  }
  return levels;
}

/** True for a lean ("slightly high" or "low"), short of a marked level. */
export function isLean(level: TraitLevel): boolean {
  return level.startsWith('slightly');
}

/** The marked levels only, leans left out: what a person's traits claim outright (traitStances). */
export function markedLevels(levels: TraitLevels): TraitLevels {
  const marked: TraitLevels = {};
  for (const trait of OTHER_TRAITS) {
    const level = levels[trait];
    if (level !== undefined && !isLean(level)) marked[trait] = level;
  }
  return marked;
}

/** Role families phrases can be written for, recognised from a job title. */
export const ROLE_FAMILIES = [
  'sales',
  'marketing',
  'engineering',
  'data',
  'design',
  'management',
  'finance',
  'people',
  'operations',
  'support',
] as const;
export type RoleFamily = (typeof ROLE_FAMILIES)[number];

/**
 * First match wins, so the order settles titles that name two families: "Sales Engineer" is
 * sales, "Customer Success Manager" support, "HR Manager" people, "Engineering Manager"
 * management (the advice is about how they lead).
 *
 * `marketing` is work made for an audience: campaigns, and also writing, editing, producing and
 * presenting (a podcast host, a journalist). Its phrases speak of the audience and the message;
 * `design`'s speak of products people use ("designs and makes things", mock-ups), which told a
 * podcast producer about screenshots when "producer", "writer" and "editor" were design words.
 */
const ROLE_PATTERNS: readonly (readonly [RoleFamily, RegExp])[] = [
  ['sales', /\b(sales|account (executive|manager)|business development|bdr|sdr|partnerships?|commercial)\b/],
  ['support', /\b(support|customer success|customer service|client services|service desk|help ?desk|nurse|care)\b/],
  ['people', /\b(hr|human resources|people|talent|recruit(er|ing)?|learning|training|coach|teacher|trainer)\b/],
  ['management', /\b(ceo|cto|cfo|coo|cmo|cio|chief|founder|co-?founder|president|vp|vice president|director|head of|manager|lead|principal|owner)\b/],
  ['marketing', /\b(marketing|brand|growth|content|communications?|pr|social media|seo|copywriter|community|podcast(er)?|host|presenter|broadcaster|journalist|reporter|(?<!technical )writer|editor|producer)\b/],
  ['data', /\b(data|analyst|analytics|scientist|research(er)?|statistician|actuar(y|ial)|economist|laboratory|lab)\b/],
  ['engineering', /\b(engineer(ing)?|developer|programmer|software|devops|sre|architect|technical|technician|it|firmware|qa|tester)\b/],
  ['design', /\b(design(er)?|ux|ui|creative|art director|illustrator)\b/],
  ['finance', /\b(finance|financial|accountant|accounting|controller|treasur(y|er)|auditor|bookkeeper|tax|investment|banker)\b/],
  ['operations', /\b(operations|ops|logistics|supply chain|procurement|project|program(me)?|coordinator|administrator|office|planner|events?)\b/],
];

export function roleFamily(title: string | null | undefined): RoleFamily | null {
  if (typeof title !== 'string') return null;
  const normalised = title.toLowerCase().replace(/[^a-z0-9&/+-]+/g, ' ').trim();
  if (normalised === '') return null;
  for (const [family, pattern] of ROLE_PATTERNS) if (pattern.test(normalised)) return family;
  return null;
}

/** True when a person at `level` fits a phrase written for `wanted` ("high" takes "very high" too). */
export function levelFits(wanted: TraitLevel, level: TraitLevel | undefined): boolean {
  if (level === undefined) return false;
  if (wanted === level) return true;
  return (wanted === 'high' && level === 'very high') || (wanted === 'low' && level === 'very low');
}

/**
 * What a trait level says about the person, in the phrase library's `stance` terms: a page for
 * someone with low neuroticism must not also say that criticism drains them. The trait's own
 * reading is the direct evidence for such a claim, the DISC sector's advice only a stereotype of
 * its type, so for marked levels (markedLevels) sector phrases that take the other side are left
 * out (rank.ts conditionsMet). A lean is too weak to overrule the sector: its phrases carry the
 * lean's stance, and of a lean phrase and a sector phrase saying otherwise the sector's, chosen
 * first, stays (rank.ts UsedPhrases).
 */
const TRAIT_STANCES: Readonly<Record<OtherTrait, { high: string; low: string }>> = {
  openness: { high: 'novelty:seeks', low: 'novelty:wary' },
  conscientiousness: { high: 'structure:orderly', low: 'structure:loose' },
  neuroticism: { high: 'composure:rattled', low: 'composure:steady' },
};

/**
 * The traits the personality test measures beside the circle (src/assessment: the IPIP-NEO
 * openness and conscientiousness items; neuroticism is not asked). Their stances are the only
 * ones a phrase's `claims` may name.
 */
const MEASURED_TRAITS = ['openness', 'conscientiousness'] as const satisfies readonly OtherTrait[];

/** Every side a phrase's `claims` may take: `structure:orderly`, `structure:loose`, `novelty:…`. */
export const CLAIM_STANCES: readonly string[] = MEASURED_TRAITS.flatMap((trait) => [TRAIT_STANCES[trait].high, TRAIT_STANCES[trait].low]);

/**
 * What a personality test measured, as stances: the marked levels (±0.3 and beyond) of the
 * traits it measures. Sector phrases whose `claims` take the other side are left out for that
 * person (rank.ts conditionsMet): a test's "conscientiousness 0.75" outweighs the I style's
 * stereotype of losing track of details. Text estimates give none: the text model's reading of
 * these traits is not trusted that far (docs/api-decisions.md), and their profiles stay as they were.
 */
export function measuredStances(levels: TraitLevels, measured: boolean): string[] {
  if (!measured) return [];
  const marked = markedLevels(levels);
  const stances: string[] = [];
  for (const trait of MEASURED_TRAITS) {
    const level = marked[trait];
    if (level !== undefined) stances.push(level.endsWith('high') ? TRAIT_STANCES[trait].high : TRAIT_STANCES[trait].low);
  }
  return stances;
}

export function traitStances(levels: TraitLevels): string[] {
  const stances: string[] = [];
  for (const trait of OTHER_TRAITS) {
    const level = levels[trait];
    if (level !== undefined) stances.push(level.endsWith('high') ? TRAIT_STANCES[trait].high : TRAIT_STANCES[trait].low);
  }
  return stances;
}

/** Everything about a person, besides the point, that selection reads. */
export interface Facets {
  level: EvidenceLevel;
  traits: TraitLevels;
  role: RoleFamily | null;
  /** Claims the person's marked traits make (traitStances); phrases saying otherwise are left out. */
  stances?: readonly string[];
  /** Claims a personality test's measure makes (measuredStances); phrases whose `claims` say otherwise are left out. */
  measured?: readonly string[];
}

export function facetsKey(facets: Facets): string {
  const code: Record<TraitLevel, string> = { 'very high': 'H', high: 'h', 'slightly high': 'p', 'slightly low': 'm', low: 'l', 'very low': 'L' };
  const traits = OTHER_TRAITS.map((t) => {
    const level = facets.traits[t];
    return level === undefined ? '-' : code[level];
  }).join('');
  return `${facets.level[0] ?? ''}${traits}${facets.role ?? '-'}`;
}
