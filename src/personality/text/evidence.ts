import { TRAITS, type EvidenceItem, type Trait } from '../types.ts';
import { CATEGORY_NAMES } from './lexicon.ts';
import type { TextModel } from './model.ts';

/**
 * What a person is shown as the reasons for a trait. The model weighs every word,
 * "the" and "of" included, and their rates do carry signal; but "the" tells a reader
 * nothing about themselves. So evidence lists content words, and word classes the text
 * uses more than the reference population, each named with the text's own most frequent
 * word of the class: "I (first-person pronouns)". Pronouns and other function words are
 * shown only that way, as the class they signal.
 *
 * Only weights that kept their sign in every cross-validation fold are shown (the model
 * file records which): a word that pushed agreeableness up when some essays were trained on
 * and down with others is chance, not a reason. A word is shown with its word class, found
 * at training time from the training texts: "organised (adjective)".
 */

export const EVIDENCE_PER_TRAIT = 5;

/** Readable names of the word classes shown as evidence; classes left out are never shown. */
const CLASS_LABELS: Readonly<Record<string, string>> = {
  i: 'first-person pronouns',
  we: 'first-person plural pronouns',
  you: 'second-person pronouns',
  shehe: 'third-person pronouns',
  they: 'third-person plural pronouns',
  hedge: 'hedges',
  certainty: 'certainty words',
  tentative: 'tentative words',
  negation: 'negations',
  social: 'social words',
  family: 'family words',
  friends: 'friend words',
  romance: 'romance words',
  posemo: 'positive emotion',
  negemo: 'negative emotion',
  anger: 'anger words',
  anxiety: 'anxiety words',
  sadness: 'sadness words',
  insight: 'insight words',
  causation: 'cause and reason',
  discrepancy: 'wants and shoulds',
  achievement: 'achievement words',
  work: 'work and study',
  leisure: 'leisure words',
  home: 'home words',
  money: 'money words',
  religion: 'religion words',
  death: 'death words',
  body: 'body words',
  health: 'health words',
  sexual: 'sexual words',
  ingest: 'food and drink',
  perception: 'perception words',
  motion: 'motion words',
  past: 'past focus',
  present: 'present focus',
  future: 'future focus',
  time: 'time words',
  swear: 'swear words',
  filler: 'fillers',
  assent: 'assent words',
  inhibition: 'restraint words',
  number_word: 'number words',
};

/** Articles, determiners, pronouns, prepositions, conjunctions, auxiliaries, particles. */
const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those some any each every either neither no another such what which whose ' +
    "i me my mine myself i'm i've i'll i'd im ive we us our ours ourselves we're we've we'll you your yours yourself " +
    "you're you've you'll u ur he him his himself she her hers herself he's she's they them their theirs themselves " +
    "they're they've it its it's itself one ones who whom " +
    'of in on at to for from by with about as into onto upon over under through between among against during ' +
    'without within before after above below up down out off near around across along toward towards than via per ' +
    'and or but nor so yet if then because while although though whether since unless until till ' +
    'is am are was were be been being have has had having do does did doing done will would shall should can could ' +
    "may might must isn't aren't wasn't weren't don't doesn't didn't won't wouldn't can't couldn't shouldn't " +
    "haven't hasn't hadn't dont doesnt didnt cant wont isnt wasnt not " +
    'there here where when how why just also too very only even still ever'
  ).split(/\s+/),
);

/** A word worth showing on its own: has a letter, more than one character, not a function word. */
function isContentTerm(term: string): boolean {
  if (term.includes(' ')) return term.split(' ').some(isContentTerm);
  return term.length > 1 && /\p{L}/u.test(term) && !FUNCTION_WORDS.has(term);
}

export interface EvidenceInputs {
  /** Per distinct word (or phrase) of the text: its n-gram contribution, per trait. */
  terms: ReadonlyMap<string, Float64Array>;
  /** Per word (or phrase) of `terms`: its row among the model's n-gram weights. */
  rows: ReadonlyMap<string, number>;
  /** Per word of the text: how often it occurs. */
  counts: ReadonlyMap<string, number>;
  /** Word classes of each word of the text (indexes into CATEGORY_NAMES). */
  classesOf: (word: string) => readonly number[];
  /** Per class: the standardised, clipped rate in the text (> 0 = more than the average). */
  classRates: Float64Array;
}

function displayWord(word: string): string {
  return word === 'i' ? 'I' : word.startsWith("i'") ? `I${word.slice(1)}` : word;
}

/** Class index → "<the text's most frequent word of the class> (<label>)". */
function classTerms(inputs: EvidenceInputs): Map<number, string> {
  const best = new Map<number, { word: string; count: number }>();
  for (const [word, count] of inputs.counts) {
    for (const category of inputs.classesOf(word)) {
      const current = best.get(category);
      if (current === undefined || count > current.count || (count === current.count && word < current.word)) best.set(category, { word, count });
    }
  }
  const terms = new Map<number, string>();
  for (const [category, { word }] of best) {
    const label = CLASS_LABELS[CATEGORY_NAMES[category] ?? ''];
    if (label !== undefined && (inputs.classRates[category] ?? 0) > 0) terms.set(category, `${displayWord(word)} (${label})`);
  }
  return terms;
}

function roundTo4(value: number): number {
  return Number(value.toPrecision(4));
}

export function rankEvidence(model: TextModel, inputs: EvidenceInputs): Record<Trait, EvidenceItem[]> {
  const classes = classTerms(inputs);
  const topFor = (trait: Trait): EvidenceItem[] => {
    if (!model.trainedTraits.has(trait)) return [];
    const t = TRAITS.indexOf(trait);
    const stable = model.stable[trait];
    const ranked: EvidenceItem[] = [];
    for (const [term, values] of inputs.terms) {
      const weight = values[t] ?? 0;
      const row = inputs.rows.get(term) ?? -1;
      if (weight === 0 || !isContentTerm(term) || (stable !== null && stable.ngramRows[row] !== 1)) continue;
      const wordClass = term.includes(' ') ? undefined : model.wordClassOfRow(row);
      ranked.push({ term: wordClass === undefined ? term : `${term} (${wordClass})`, weight });
    }
    for (const [category, term] of classes) {
      if (stable !== null && stable.dense[category] !== 1) continue;
      // The class's whole contribution: its rate's distance above average times its weight.
      const weight = (inputs.classRates[category] ?? 0) * (model.denseWeights[category * TRAITS.length + t] ?? 0);
      if (weight !== 0) ranked.push({ term, weight });
    }
    ranked.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || a.term.localeCompare(b.term));
    // One item per word: "family (family words)" and "family (noun)" would say the same twice.
    const seen = new Set<string>();
    const distinct = ranked.filter(({ term }) => {
      const word = term.split(' (')[0] ?? term;
      if (seen.has(word)) return false;
      seen.add(word);
      return true;
    });
    return distinct.slice(0, EVIDENCE_PER_TRAIT).map(({ term, weight }) => ({ term, weight: roundTo4(weight) }));
  };
  return {
    extraversion: topFor('extraversion'),
    agreeableness: topFor('agreeableness'),
    conscientiousness: topFor('conscientiousness'),
    openness: topFor('openness'),
    neuroticism: topFor('neuroticism'),
  };
}
