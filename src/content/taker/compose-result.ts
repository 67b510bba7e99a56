/**
 * The taker's own result, composed from result.json: pure, deterministic, no I/O. The type's
 * letters choose the style lists (a pure type takes its style's, a leaning one mostly its main
 * style's and one of its lean's, an even one both alike); near the centre of the map the
 * balanced lists lead. Traits the test measured at a marked level add their own sentences and
 * keep out sentences that claim the other side (the I style's "details can slip" for a taker
 * measured as thorough), as the profile's advice does (content/claims.ts).
 */
import type { PersonalityView } from '../../personality/views.ts';
import type { TraitScores } from '../../personality/types.ts';
import { isLean, levelEnd, traitLevels, type TraitLevel, type TraitLevels } from '../traits.ts';
import {
  MEASURED,
  MEASURED_STANCES,
  RESULT_LISTS,
  RESULT_STYLES,
  TRAIT_LISTS,
  type ResultEntry,
  type ResultList,
  type ResultStyle,
  type Scale,
  type TakerResultContent,
} from './result.ts';

export interface ResultBar {
  scale: Scale;
  name: string;
  means: string;
  /** 0–100: a share of the point (d, i, s, c), the intensity, or a measured trait's place from very low (0) to very high (100). */
  value: number;
  /** For a measured trait, its level in words ("high", "average", …); shares and the intensity have none. */
  level: string | null;
}

export interface LetterMeaning {
  letter: string;
  style: string;
  /** main: the leading style; lean: the style it leans toward; equal: one of two even styles. */
  role: 'main' | 'lean' | 'equal';
}

export interface TakerResult {
  discType: string;
  archetype: string;
  /** One line on the style: the main style's gist, or that the taker is a blend. */
  gist: string;
  /** What the type and its archetype mean, then (for a blend) the way it leans. */
  explanation: string[];
  letters: LetterMeaning[];
  lists: Record<ResultList, string[]>;
  /** The four DISC shares, the intensity, and the traits the test measured apart from the circle. */
  bars: ResultBar[];
}

/** Places per list: strengths and blind spots take four, the others three (a measured trait adds one). */
const PLACES: Record<ResultList, number> = { strengths: 4, blindSpots: 4, communication: 3, work: 3, drains: 3 };

function stylesOf(discType: string): { main: ResultStyle; second: ResultStyle | null; even: boolean } {
  const letters = [...discType];
  const asStyle = (letter: string | undefined): ResultStyle | null => {
    const upper = letter?.toUpperCase();
    return RESULT_STYLES.find((s) => s === upper) ?? null;
  };
  const main = asStyle(letters[0]) ?? 'S';
  const secondLetter = letters[1];
  return { main, second: asStyle(secondLetter), even: secondLetter !== undefined && secondLetter === secondLetter.toUpperCase() };
}

/** How many of a list's places the main style takes: all for a pure type, one fewer for a lean, half for an even pair. */
function mainShare(places: number, second: ResultStyle | null, even: boolean): number {
  if (second === null) return places;
  return even ? Math.ceil(places / 2) : places - 1;
}

/** The level's side, for the trait sentences: marked levels only (±0.3 and beyond). */
function side(level: TraitLevel | undefined): 'high' | 'low' | null {
  if (level === 'high' || level === 'very high') return 'high';
  if (level === 'low' || level === 'very low') return 'low';
  return null;
}

const OPPOSITE: Record<string, string> = {
  'structure:orderly': 'structure:loose',
  'structure:loose': 'structure:orderly',
  'novelty:seeks': 'novelty:wary',
  'novelty:wary': 'novelty:seeks',
};

/** A measured trait's place on a 0–100 bar: −1 (very low) at 0, the scale's midpoint at 50. */
function traitBarValue(score: number): number {
  return Number.isFinite(score) ? Math.round(Math.min(100, Math.max(0, (score + 1) * 50))) : 50;
}

/** Below this intensity a result sits near the centre of the map, where the balanced lists lead. */
const BLEND_INTENSITY = 30;

/**
 * What the test measured, as sides an entry may not contradict: the marked levels (±0.3 and
 * beyond; a lean is too weak to overrule the style's lists) of the traits it measures. A text
 * reading's levels give none: they are not trusted that far.
 */
function measuredStances(levels: TraitLevels, measured: boolean): string[] {
  if (!measured) return [];
  const stances: string[] = [];
  for (const [trait, sides] of Object.entries(MEASURED_STANCES) as Array<[keyof typeof MEASURED_STANCES, { high: string; low: string }]>) {
    const level = levels[trait];
    if (level !== undefined && !isLean(level)) stances.push(sides[levelEnd(level)]);
  }
  return stances;
}

export function composeTakerResult(content: TakerResultContent, view: PersonalityView, scores: TraitScores, measured: boolean): TakerResult {
  const { main, second, even } = stylesOf(view.discType);
  const blend = view.discIntensity < BLEND_INTENSITY;
  const levels = traitLevels(scores);
  const ruledOut = new Set(measuredStances(levels, measured).map((stance) => OPPOSITE[stance] ?? ''));
  const allowed = (entry: ResultEntry) => entry.claims === undefined || !ruledOut.has(entry.claims);

  const lists = {} as Record<ResultList, string[]>;
  for (const list of RESULT_LISTS) {
    const places = PLACES[list];
    const pick = (entries: readonly ResultEntry[], count: number, taken: string[]) => {
      for (const entry of entries) {
        if (taken.length >= count) break;
        if (allowed(entry) && !taken.includes(entry.text)) taken.push(entry.text);
      }
    };
    const chosen: string[] = [];
    if (blend) {
      // A blend is told so first; one sentence of the side it leans toward keeps it concrete.
      pick(content.balanced[list], places - 1, chosen);
      pick(content.styles[main][list], places, chosen);
    } else {
      pick(content.styles[main][list], mainShare(places, second, even), chosen);
      if (second !== null) pick(content.styles[second][list], places, chosen);
      // A sentence ruled out by a measured trait leaves its place to the rest of the main style.
      pick(content.styles[main][list], places, chosen);
    }
    if (measured && (TRAIT_LISTS as readonly string[]).includes(list)) {
      for (const trait of MEASURED) {
        const at = side(levels[trait]);
        const entry = at === null ? undefined : content.traits[trait][at][list as (typeof TRAIT_LISTS)[number]];
        if (entry && !chosen.includes(entry.text)) chosen.push(entry.text);
      }
    }
    lists[list] = chosen;
  }

  const styleName = (style: ResultStyle) => content.styles[style].name;
  const letters: LetterMeaning[] = [...view.discType].map((letter, i) => {
    const style = RESULT_STYLES.find((s) => s === letter.toUpperCase()) ?? main;
    const role = i === 0 ? (even ? 'equal' : 'main') : even ? 'equal' : 'lean';
    return { letter, style: styleName(style), role };
  });
  // An even pair leans toward both of its styles alike.
  const leanNames = even && second !== null ? `${styleName(main)} and ${styleName(second)}` : styleName(main);
  const explanation = blend
    ? [content.balanced.lean.replace('{style}', leanNames).replace('{archetype}', view.archetype)]
    : [content.types[view.discType] ?? ''];
  const percentages = view.discPercentages;
  const bars: ResultBar[] = [
    ...(['d', 'i', 's', 'c'] as const).map((key) => ({ scale: key, ...content.scales[key], value: Math.round(percentages[key]), level: null })),
    { scale: 'intensity', ...content.scales.intensity, value: Math.round(view.discIntensity), level: null },
    ...(measured
      ? MEASURED.map((trait) => ({ scale: trait, ...content.scales[trait], value: traitBarValue(scores[trait]), level: levels[trait] ?? 'average' }))
      : []),
  ];
  return {
    discType: view.discType,
    archetype: view.archetype,
    gist: blend ? content.balanced.gist : content.styles[main].gist,
    explanation: explanation.filter((s) => s !== ''),
    letters,
    lists,
    bars,
  };
}
