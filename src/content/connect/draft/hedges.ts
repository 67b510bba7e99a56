/**
 * Hedges and filler, every occurrence. A hedge makes the writer sound unsure of their own request
 * or claim ("maybe", "I think", "sorry to bother you", "No worries if not"); filler adds words and
 * no meaning ("basically", "to be honest"). The same words are no hedge where they mean something
 * else: "what kind of support" (a noun), "roughly 30 people" (an estimate), "I just got back" (a
 * moment ago), "Just accept it" (a push: pressure.ts).
 */
import { findIn, findingOf, type Draft, type Finding } from './draft.ts';
import { isNumber } from './words.ts';
import { PatternSet, type PatternMatch } from './patterns.ts';

const HEDGES = new PatternSet([
  'maybe|perhaps|possibly|hopefully|probably|presumably|arguably|conceivably|somewhat',
  'i|we think|guess|believe|suppose|reckon|imagine',
  'i|we feel like|that',
  'i|we would say',
  'i am not sure|certain',
  'not sure|certain',
  'i|we could|might|may be wrong|mistaken',
  'correct_me_if_i_am_wrong',
  'sort_of|kind_of',
  'a_bit|a_little_bit|a_tad',
  'roughly',
  'just wanted|want|wondering|wondered|checking|following|thought|thinking|curious|touching|circling|looping|reaching|writing|hoping|need|needed|quickly',
  'just a|to quick|small|short|little|reminder|note|thought|heads|check|follow|let|say|touch|confirm',
  'i|we was|were|am|are just? wondering',
  'i was|am just? hoping',
  'i|we wonder|wondered if|whether',
  'wondering if|whether',
  'sorry|apologies|apologise|apologize ~2 to_bother|to_chase|to_bug|to_pester|to_trouble|to_disturb|for_bothering|for_chasing|for_the_bother|if_this',
  'silly|stupid|dumb|basic question',
  'sorry|apologies if this is a|such_a silly|stupid|dumb|basic question',
  'no_worries|no_problem|totally_fine|completely_fine|fine|ok|okay|all_good if_not|if_you_can_not|if_you_are_busy',
  'only if you have ~1 time|moment|minute|capacity|bandwidth',
  'if you have a moment|minute|second',
  'if it is not too_much_trouble',
  'might|could possibly|potentially',
  'might_be_able_to',
]);
/** Before "kind of" / "sort of", these make it a noun ("what kind of support"). */
const DETERMINERS = new Set(['what', 'this', 'that', 'the', 'a', 'an', 'any', 'which', 'some', 'every', 'one', 'same', 'other', 'all', 'these', 'those', 'our', 'your', 'my', 'their', 'his', 'her', 'its', 'no', 'each', 'different', 'right', 'wrong', 'new', 'that']);

const FILLERS = new PatternSet([
  'basically|honestly|literally|actually|frankly|needless_to_say|to_be_honest|to_be_fair|at_the_end_of_the_day|truth_be_told|in_all_honesty|for_what_it_is_worth|it_goes_without_saying',
]);

function isHedge(draft: Draft, m: PatternMatch): boolean {
  const { words } = draft;
  const first = words[m.from]?.w;
  const next = words[m.to + 1]?.w ?? '';
  if ((first === 'sort' || first === 'kind') && DETERMINERS.has(words[m.from - 1]?.w ?? '')) return false;
  if (first === 'a' && next === 'of') return false;
  if (first === 'roughly' && isNumber(next)) return false;
  return true;
}

export function findHedges(draft: Draft): Finding[] {
  return findIn(draft, HEDGES)
    .filter((m) => isHedge(draft, m))
    .map((m) => findingOf('hedge', m));
}

/** "like" set off by commas ("the client loved it, like, really loved it") is filler too. */
function likeFillers(draft: Draft): Finding[] {
  const { scan } = draft;
  const found: Finding[] = [];
  scan.tokens.forEach((token, k) => {
    if (token.word !== 'like') return;
    const before = scan.text.slice(Math.max(0, token.start - 2), token.start);
    const after = scan.text.charAt(token.end);
    if (after === ',' && before.includes(',')) found.push({ check: 'filler', start: token.start, end: token.end, sentence: scan.tokenSentence[k] ?? 0 });
  });
  return found;
}

export function findFillers(draft: Draft): Finding[] {
  return [...findIn(draft, FILLERS).map((m) => findingOf('filler', m)), ...likeFillers(draft)];
}
