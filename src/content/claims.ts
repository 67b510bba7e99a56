/**
 * What a reading allows advice to claim about a person, and what each phrase claims.
 *
 * Every phrase that asserts something a reader could contradict carries a `stance`, one
 * `topic:side` per assertion ("drive:hard", "agenda:wanders", "feedback:gentle"). Most topics are
 * directions on the DISC circle: one side lies toward the topic's axis, the other opposite it
 * (drive: hard toward D at 112.5°, gentle toward S). A reading claims the side its direction
 * points to, and none where it points across the axis (within DEAD_BAND of the perpendicular,
 * or anywhere for a central reading but close to an axis). A phrase is a candidate only where
 * the reading claims every directional side the phrase takes (candidates.ts), so a profile, a
 * Connect page, the relationship advice and the sample emails of one person take the same sides:
 * they all read one Reading (reading.ts). `structure` and `novelty` follow a test's measure of
 * conscientiousness and openness where there is one (`detail` follows conscientiousness too).
 *
 * Two topics are not directions: `composure` (how criticism and pressure land: neuroticism,
 * which no test here measures) is kept to one side per page, the first chosen; `degree` says
 * whether a sentence calls the style mild (a reading of strength under MILD_BELOW) or claims a
 * type's trait outright.
 */
import { angularDistance } from '../personality/circle.ts';
import { levelEnd, type OtherTrait, type TraitLevels, isLean } from './traits.ts';

/** A directional topic: `sides[0]` lies toward `axis` (degrees), `sides[1]` opposite it. */
export interface DirectionalTopic {
  axis: number;
  sides: readonly [string, string];
  /** A trait whose known level (traits.ts knownTraitLevels) decides the side instead: high, low. */
  trait?: OtherTrait;
  /** What the topic is about, for the README and the library's error messages. */
  about: string;
}

export const DIRECTIONAL_TOPICS = {
  lead: { axis: 135, sides: ['takes', 'yields'], about: 'takes charge of a group, or follows and supports' },
  drive: { axis: 135, sides: ['hard', 'gentle'], about: 'pushes hard for results and decisions, or rarely pushes' },
  conflict: { axis: 135, sides: ['faces', 'avoids'], about: 'meets disagreement head-on, or steers round it' },
  pace: { axis: 90, sides: ['sets', 'follows'], about: "sets a group's pace, or goes along with it" },
  turn: { axis: 90, sides: ['first', 'after'], about: 'speaks or starts while others are still talking, or after they have had their say' },
  tempo: { axis: 90, sides: ['fast', 'unhurried'], about: 'decides and works quickly, or takes time over a decision' },
  risk: { axis: 90, sides: ['bold', 'cautious'], about: 'takes risks readily, or is careful with them' },
  length: { axis: 90, sides: ['short', 'long'], about: 'wants short messages, or full ones' },
  order: { axis: 90, sides: ['ask_first', 'context_first'], about: 'wants the request before its background, or after it' },
  warmth: { axis: 0, sides: ['warm', 'cool'], about: 'a warm, personal manner, or a reserved, businesslike one' },
  opening: { axis: 0, sides: ['warmup', 'direct'], about: 'small talk before business, or none' },
  feedback: { axis: 0, sides: ['gentle', 'blunt'], about: 'criticism softened and private, or plain and direct' },
  agenda: { axis: 337.5, sides: ['wanders', 'focused'], about: 'meetings that wander, or brisk ones kept to the point' },
  company: { axis: 0, sides: ['team', 'solo'], about: 'works best with others, or on their own' },
  channel: { axis: 45, sides: ['spoken', 'written'], about: 'a call or a conversation, or writing' },
  praise: { axis: 45, sides: ['public', 'private'], about: 'recognition in front of others, or in private' },
  novelty: { axis: 67.5, sides: ['seeks', 'wary'], trait: 'openness', about: 'seeks new ideas and change, or prefers the proven' },
  detail: { axis: 225, sides: ['detail', 'big_picture'], trait: 'conscientiousness', about: 'wants every detail, or the headline' },
  structure: { axis: 247.5, sides: ['orderly', 'loose'], trait: 'conscientiousness', about: 'plans and finishes carefully, or improvises' },
} as const satisfies Record<string, DirectionalTopic>;
export type DirectionalTopicName = keyof typeof DIRECTIONAL_TOPICS;

/** Topics that are not directions on the circle (above). */
export const OTHER_TOPICS = {
  composure: { sides: ['steady', 'rattled'], about: 'takes criticism and pressure calmly, or feels them keenly' },
  degree: { sides: ['mild', 'firm'], about: 'calls the style mild or balanced, or claims a type outright' },
} as const;

/** Every `topic:side` a phrase may take. */
export const STANCES: ReadonlySet<string> = new Set([
  ...Object.entries(DIRECTIONAL_TOPICS).flatMap(([topic, t]) => t.sides.map((side) => `${topic}:${side}`)),
  ...Object.entries(OTHER_TOPICS).flatMap(([topic, t]) => t.sides.map((side) => `${topic}:${side}`)),
]);

/**
 * Across an axis a direction says nothing: a reading claims a side only where the cosine of its
 * angle to the axis is at least this (about 17° either side of the perpendicular are left open).
 */
export const DEAD_BAND = 0.3;
/** A central reading (a blend) claims a side only this close to an axis (cosine; within 45°). */
export const CENTRAL_BAND = 0.7;
/** Below this strength a reading's sentences call the style mild (`degree:mild`). */
export const MILD_BELOW = 36;

/**
 * Stances are a small fixed set read many times per profile (candidates, picking, the check): each
 * topic is cut once, and the same string comes back each time, so comparing two topics is cheap.
 */
const topics = new Map<string, string>();
const TOPIC_CACHE_LIMIT = 10_000;

export function topicOf(stance: string): string {
  let topic = topics.get(stance);
  if (topic === undefined) {
    const colon = stance.indexOf(':');
    topic = colon < 0 ? stance : stance.slice(0, colon);
    if (topics.size >= TOPIC_CACHE_LIMIT) topics.clear();
    topics.set(stance, topic);
  }
  return topic;
}

const DIRECTIONAL_NAMES: ReadonlySet<string> = new Set(Object.keys(DIRECTIONAL_TOPICS));

export function isDirectional(topic: string): topic is DirectionalTopicName {
  return DIRECTIONAL_NAMES.has(topic);
}

/** What decides the claims: the reading's direction and strength, a blend or not, known traits. */
export interface ClaimInput {
  angle: number;
  strength: number;
  central: boolean;
  traits: TraitLevels;
}

/** The side of a directional topic a reading takes, or null where it leaves the topic open. */
export function sideOf(topic: DirectionalTopicName, input: ClaimInput): string | null {
  const spec: DirectionalTopic = DIRECTIONAL_TOPICS[topic];
  if (spec.trait !== undefined) {
    const level = input.traits[spec.trait];
    if (level !== undefined && !isLean(level)) return levelEnd(level) === 'high' ? spec.sides[0] : spec.sides[1];
  }
  const cos = Math.cos((angularDistance(input.angle, spec.axis) * Math.PI) / 180);
  const band = input.central ? CENTRAL_BAND : DEAD_BAND;
  if (cos >= band) return spec.sides[0];
  if (cos <= -band) return spec.sides[1];
  return null;
}

/** The topics in alphabetical order, `degree` among them, so claims come out sorted without sorting. */
const ORDERED_TOPICS: readonly string[] = [...Object.keys(DIRECTIONAL_TOPICS), 'degree'].sort();

/** Every `topic:side` the reading claims, sorted (a stable cache key). */
export function claimsOf(input: ClaimInput): string[] {
  const claims: string[] = [];
  for (const topic of ORDERED_TOPICS) {
    if (topic === 'degree') {
      claims.push(input.strength < MILD_BELOW ? 'degree:mild' : 'degree:firm');
      continue;
    }
    const side = isDirectional(topic) ? sideOf(topic, input) : null;
    if (side !== null) claims.push(`${topic}:${side}`);
  }
  return claims;
}

/** True when two lists of `topic:side` take different sides on one topic. */
export function stancesClash(a: readonly string[], b: readonly string[]): boolean {
  for (const mine of a) {
    const topic = topicOf(mine);
    for (const theirs of b) if (theirs !== mine && topicOf(theirs) === topic) return true;
  }
  return false;
}

/**
 * True when the reading's claims allow every side the phrase takes: a directional side or a
 * degree only if the reading claims it, composure unless the reading (or the page) claims the other side.
 */
export function allowedBy(stance: readonly string[] | undefined, claims: ReadonlySet<string>): boolean {
  if (stance === undefined) return true;
  for (const side of stance) {
    const topic = topicOf(side);
    if (isDirectional(topic) || topic === 'degree') {
      if (!claims.has(side)) return false;
    } else {
      for (const claim of claims) if (claim !== side && topicOf(claim) === topic) return false;
    }
  }
  return true;
}
