/**
 * Claims that need a figure: a big word ("huge", "industry-leading", "dramatically better", "way
 * up") in a sentence about results, performance or what the writer offers, with no figure in it.
 * Statements that need no figure are left alone: praise of the reader or their work ("your
 * feedback was amazing", "Congrats…, a huge win"), and opinions about anything else ("the taco
 * truck was amazing").
 */
import { findIn, findingOf, sentenceHas, sentenceWords, type Draft, type Finding } from './draft.ts';
import { isNumber } from './words.ts';
import { PatternSet, type PatternMatch } from './patterns.ts';

const BIG = new PatternSet([
  'huge|massive|massively|amazing|incredible|incredibly|tremendous|tremendously|revolutionary|transformative|groundbreaking|unbeatable|unprecedented|unmatched|unparalleled|seamless|seamlessly|dramatic|dramatically|significant|significantly|substantial|substantially|exponential|exponentially|phenomenal|skyrocket|skyrockets|skyrocketing|skyrocketed',
  'game_changer|game_changing|best_in_class|world_class|cutting_edge|state_of_the_art|industry_leading|market_leading|next_level|second_to_none|top_notch|leading_edge|best_ever|fast_growing|fastest_growing|rapidly_growing',
  'way_up|way_down|way_more|way_better|up_a_lot|down_a_lot|a_lot_better|a_lot_faster|a_lot_more|much_faster|much_better|far_better',
  'best ~3 on_the_market|in_the_market|in_the_industry|in_the_business|available|out_there|in_the_world|money_can_buy|in_town',
  'one_of_the best|top|leading|fastest|largest|biggest|most',
  'the|a|an leading ~2 platform|provider|solution|tool|company|vendor|firm|brand|supplier|software|service|agency|partner|product|app',
]);

/** Words that make a sentence about results, performance or an offering. */
const CLAIM_CONTEXT = new Set([
  'we', 'our', 'us', 'ours', 'product', 'products', 'platform', 'tool', 'tools', 'solution', 'solutions', 'software', 'service', 'services', 'app', 'feature', 'features',
  'results', 'result', 'growth', 'revenue', 'sales', 'pipeline', 'roi', 'savings', 'save', 'saves', 'saving', 'cost', 'costs', 'performance', 'performing', 'performs',
  'conversion', 'conversions', 'activation', 'retention', 'churn', 'tickets', 'signups', 'traffic', 'leads', 'engagement', 'productivity', 'efficiency', 'accuracy',
  'speed', 'uptime', 'customers', 'clients', 'users', 'improvement', 'improvements', 'improve', 'improves', 'improved', 'gains', 'boost', 'boosts', 'impact', 'outcomes',
  'metrics', 'numbers', 'rates', 'onboarding', 'adoption', 'usage', 'margin', 'margins', 'deals', 'bookings',
]);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself', 'yourselves']);
/** Between "you" and the big word these make it a promise to the reader, not praise ("you'll see huge gains"). */
const FUTURE = new Set(['will', 'would', 'could', 'can', 'might', 'may']);
const THANKS = new Set(['thanks', 'thank', 'congratulations', 'congrats', 'kudos', 'bravo', 'well']);
const IT = new Set(['it', 'this', 'that', 'they', 'these']);

/** A figure: a word that starts with a digit ("30", "18,000", "2x", "5pm"; not "B2B" or "Q3"), or a number word other than "one". */
function hasFigure(draft: Draft, sentence: number, figures: Map<number, boolean>): boolean {
  const known = figures.get(sentence);
  if (known !== undefined) return known;
  const { from, to } = sentenceWords(draft, sentence);
  let found = false;
  for (let i = from; i < to && !found; i++) {
    const w = draft.words[i]?.w ?? '';
    found = /^\d/.test(w) || (w !== 'one' && isNumber(w) && !/\d/.test(w));
  }
  figures.set(sentence, found);
  return found;
}

/** Praise of the reader: thanks or congratulations in the sentence, or "you"/"your" as the nearest person before the word. */
function isPraise(draft: Draft, m: PatternMatch): boolean {
  const { words } = draft;
  const { from } = sentenceWords(draft, m.sentence);
  if (sentenceHas(draft, m.sentence, THANKS)) return true;
  if (words[m.to + 1]?.w === 'thanks' || words[m.to + 1]?.w === 'shout') return true;
  // The nearest person within a clause's reach (a dozen words) decides.
  for (let i = m.from - 1; i >= Math.max(from, m.from - 12); i--) {
    const w = words[i]?.w ?? '';
    if (FUTURE.has(w)) return false;
    if (SECOND_PERSON.has(w)) return true;
    if (w === 'we' || w === 'our' || w === 'us' || w === 'i' || w === 'my') return false;
  }
  return false;
}

/** "It's going to be amazing" right after a sentence about what "we" are doing speaks of that. */
function aboutOurOffering(draft: Draft, m: PatternMatch): boolean {
  const { from } = sentenceWords(draft, m.sentence);
  if (!IT.has(draft.words[from]?.w ?? '') || m.sentence === 0) return false;
  return sentenceHas(draft, m.sentence - 1, new Set(['we', 'our', 'us']));
}

export function findClaims(draft: Draft): Finding[] {
  const figures = new Map<number, boolean>();
  return findIn(draft, BIG)
    .filter((m) => !hasFigure(draft, m.sentence, figures) && !isPraise(draft, m))
    .filter((m) => sentenceHas(draft, m.sentence, CLAIM_CONTEXT) || aboutOurOffering(draft, m))
    .map((m) => findingOf('vague', m));
}

/** Praise of the reader anywhere in the draft: warmth, for the check that asks I and S readers for some. */
export function praisesReader(draft: Draft): boolean {
  return findIn(draft, BIG).some((m) => isPraise(draft, m));
}
