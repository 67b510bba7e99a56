/**
 * Pressure: what pushes the reader instead of asking them. Read as a reader would, a draft
 * pushes when it makes an offer expire today, counts down scarce places, threatens a consequence,
 * uses a coming price rise as leverage, books or decides something for the reader, waves away
 * their deliberation ("Don't overthink it"), demands ("ASAP", "you must"), chases with guilt ("Per
 * my last email") or plays on fear of missing out. An actual deadline with its reason is no
 * pressure, nor is the writer's own haste ("I'll send it ASAP").
 *
 * Four kinds, each with its own advice: `pressure` (deadlines that expire now, scarcity, demand
 * words), `booked` (booked or decided for the reader), `leverage` (threats, price rises, chasing
 * and guilt) and `brush_off` (the reader's deliberation waved away, fear of missing out).
 */
import { atClauseStart, findIn, findingOf, firstIn, joinNeighbours, sentenceHas, sentenceWords, type Draft, type Finding } from './draft.ts';
import { PatternSet, type PatternMatch } from './patterns.ts';

const DEAL = 'offer|offers|price|prices|pricing|discount|discounts|deal|deals|rate|rates|quote|promotion|promo|sale|coupon|voucher|bonus|trial';
const SOON = 'today|tonight|midnight|eod|cob|end_of_day|end_of_the_day|end_of_business|this_evening|this_afternoon|in_24_hours|within_24_hours|in_the_next_24_hours|within_the_hour|in_an_hour|in_one_hour|at_midnight|in_a_few_hours';
const ENDS = 'expires|expire|expiring|ends|end|ending|closes|close|runs_out|run_out|disappears|goes_away|stops';
const RISE = 'go_up|goes_up|going_up|rise|rises|rising|increase|increases|increasing|double|doubles|doubling|jump|jumps|jumping|climb|climbs|hike|hikes';
const CONSEQUENCE = 'suspended|cancelled|canceled|terminated|deleted|closed|blocked|revoked|disabled|removed|charged|fined|penalised|penalized|forfeited|withdrawn|frozen|locked|downgraded|reassigned|released|lost';
const THREAT_VERB = 'suspend|cancel|terminate|delete|close|block|revoke|disable|remove|charge|escalate|report|withdraw|freeze|lock|downgrade|release|pass|involve|take_legal|refer|hand|give';

/** Offers that expire, today-only deadlines and scarcity: pushing wherever they stand. */
const DEADLINES = new PatternSet([
  `${DEAL} ~4 ${ENDS} ~3 ${SOON}`,
  `${DEAL} ~4 ${ENDS}`,
  `expires|expire|expiring ~3 ${SOON}`,
  `valid|good|available until|till ~3 ${SOON}`,
  'today_only|tonight_only|this_week_only|limited_time|last_chance|final_chance|final_notice|final_reminder|act_now|act_fast|hurry|while_stocks_last|while_supplies_last|first_come_first_served|last_day_to',
  'only|just have? # ~2 left|remaining',
  'filling|selling|going up? fast|quickly',
  'will_not|do_not last|last_long',
  'before_it_is_too_late',
]);
/** Price rises as leverage, threats, chasing and guilt. */
const LEVERAGE = new PatternSet([
  `price|prices|pricing|rate|rates|cost|costs|fee|fees|subscription|premium ~3 ${RISE} by? #?`,
  'lock_in ~3 rate|rates|price|pricing|discount|deal|offer',
  'lose|losing|miss ~2 discount|rate|offer|deal|price|pricing|spot|place|slot|seat',
  'hate_for_you_to|hate_you_to|hate_to_see_you',
  'can|could|will|cannot not? hold ~2 any_longer|much_longer|open|beyond|past|after|for_long',
  'you will|would lose|miss_out',
  // Threats.
  'collection_agency|collections_agency|debt_collector|debt_collectors|legal_action|legal_proceedings|legal_steps',
  'escalate|escalating ~3 to your|your',
  'go|going|speak|talk to_your manager|boss|director|supervisor|line_manager|head',
  'loop_in|cc|copy|involve|inform your manager|boss|director|supervisor|line_manager',
  `your ~3 will_be|would_be|is_going_to_be|are_going_to_be ${CONSEQUENCE}`,
  'per|as_per my|our last|previous|earlier email|message|note|mail',
  'as i|we have? said|mentioned|stated|explained|told_you before|previously|already|last_time|repeatedly',
  'as_previously_stated',
  'this|it is the|my second|third|fourth|fifth|last|final time|email|reminder|attempt|request',
  'i|we have? asked|emailed|written|chased|reminded|called ~2 twice|three_times|four_times|several_times|multiple_times|repeatedly|again_and_again|many_times',
  'still_waiting|still_have_not_heard|still_not_heard',
  'i am surprised|disappointed ~2 you|that|not',
]);
/** The reader's deliberation waved away, and fear of missing out. */
const BRUSH_OFF = new PatternSet([
  'do_not overthink|over_think|think_twice|second_guess|think_too_much|think_too_hard it|this?',
  'no_brainer|trust_me|easy_decision|no_reason_not_to|nothing_to_think_about|what_are_you_waiting_for',
  'you will_not|will_never|would_not regret',
  'you would_be|would|d crazy|mad to',
  'take_it_or_leave_it|non_negotiable|not_negotiable|not_up_for_discussion|not_up_for_debate|final_offer|mandatory',
  'your competitors|competition ~2 are|is|have|already',
  'everyone|everybody|others else? is|are|has|have already',
  'do_not|not miss|miss_out',
  'you do_not|not want to miss',
]);

/** Something booked, signed or decided for the reader. Not where the draft says the reader asked for it. */
const DECIDED = new PatternSet([
  'i|we have? already|just|now|also? booked|scheduled|arranged|reserved|registered|enrolled|upgraded|committed|volunteered|nominated|confirmed|signed ~3 you|your|us|demo|call|meeting|session|slot|time|workshop|training|webinar|trial',
  'i|we have? already|just? put|added|blocked|booked|sent|dropped|placed ~4 in|into|to|on your calendar|diary|schedule|calendars',
  'i|we have? already|just? signed|put|registered|enrolled|nominated|volunteered|pencilled|penciled|slotted|booked you|your_team|everyone up|down|in|for|on',
  'i|we have? gone|went ahead_and',
  'i|we have? taken|took the_liberty',
  'i|we have? already|just? told|informed|promised|assured ~4 you will|are|would|can|have',
  'and|also told|informed|promised|assured ~4 you will|are|would|can|have',
  'i|we have? already? cancelled|canceled|changed|moved|switched|reassigned|removed your',
  'i|we have? already? decided|agreed ~2 for_you|on_your_behalf',
  'you are booked|confirmed|registered|enrolled|scheduled|signed_up|down|pencilled|penciled in|for|on|to',
]);
const ASKED_FOR = new PatternSet(['as agreed|discussed|requested|promised|arranged', 'as you asked|requested|suggested', 'at|per your request', 'like you asked']);

/** Demand words: pressure unless they speak of the writer's own haste ("I'll send it ASAP") or a condition ("If it's urgent, call me"). */
const DEMANDS = new PatternSet(['asap|urgent|urgently|immediately|right_now|right_away|at_once|without_delay|as_soon_as_possible|straight_away|this_instant|pronto']);
/** "I'll", "we can", "I'm going to": the writer speaks of their own haste. */
const OWN_SUBJECT = new Set(['i', 'we']);
const OWN_MODAL = new Set(['will', 'can', 'shall', 'am', 'are', 'would', 'could', 'should']);
const NOT_DEMAND_BEFORE = new Set(['available', 'effective', 'start', 'starting', 'if']);
const NOT_DEMAND_AFTER = new Set(['after', 'before', 'following', 'afterwards', 'care']);
/** A decision the reader is told to make now: "reply today", "sign now". */
const DECIDE_NOW = new PatternSet(['reply|respond|sign|decide|commit|buy|order|register|book|act|accept|agree|enrol|enroll|upgrade|subscribe|renew|purchase|claim|apply|join ~2 today|tonight|now|immediately']);
/** "Just accept it": the reader's decision made small (not "just reply YES" or "just send the file"). */
const JUST_DECIDE = new PatternSet(['just accept|agree|approve|commit|buy|say_yes|go_with|trust|pay|sign|do_it|take_it']);
/** "You must", "we must": not "you must be swamped" (a guess) or "must-have". */
const MUST = new PatternSet(['you|we must']);
const NOT_AFTER_MUST = new Set(['be', 'have', 'know', 'admit']);

function demandIsPressure(draft: Draft, m: PatternMatch): boolean {
  const { words, scan } = draft;
  const { from } = sentenceWords(draft, m.sentence);
  if (NOT_DEMAND_BEFORE.has(words[m.from - 1]?.w ?? '') || NOT_DEMAND_AFTER.has(words[m.to + 1]?.w ?? '')) return false;
  for (let i = Math.max(from, m.from - 6); i < m.from; i++) {
    if (OWN_SUBJECT.has(words[i]?.w ?? '') && OWN_MODAL.has(words[i + 1]?.w ?? '')) return false;
  }
  for (const condition of ['if', 'unless']) {
    const at = firstIn(draft, m.sentence, condition);
    if (at >= from && at < m.from) return false;
  }
  // "Is this urgent?" asks; "Can you send it ASAP?" still pushes.
  return !(words[m.from]?.w === 'urgent' && scan.sentences[m.sentence]?.question === true);
}

export function findPressure(draft: Draft): Finding[] {
  const { scan, words } = draft;
  const found: Finding[] = [
    ...findIn(draft, DEADLINES).map((m) => findingOf('pressure', m)),
    ...findIn(draft, LEVERAGE).map((m) => findingOf('leverage', m)),
    ...findIn(draft, BRUSH_OFF).map((m) => findingOf('brush_off', m)),
  ];
  const askedFor = new Set(findIn(draft, ASKED_FOR).map((a) => a.sentence));
  for (const m of findIn(draft, DECIDED)) if (!askedFor.has(m.sentence)) found.push(findingOf('booked', m));
  for (const m of findIn(draft, DEMANDS)) if (demandIsPressure(draft, m)) found.push(findingOf('pressure', m));
  for (const m of findIn(draft, DECIDE_NOW)) if (scan.sentences[m.sentence]?.question !== true) found.push(findingOf('pressure', m));
  for (const m of findIn(draft, JUST_DECIDE)) if (atClauseStart(draft, m.from)) found.push(findingOf('brush_off', m));
  // The passage is "must" itself: the subject only tells a demand from a guess.
  for (const m of findIn(draft, MUST)) {
    const must = scan.tokens[words[m.to]?.token ?? 0];
    if (must !== undefined && !NOT_AFTER_MUST.has(words[m.to + 1]?.w ?? '')) found.push({ check: 'pressure', start: must.start, end: must.end, sentence: m.sentence });
  }
  // A threat: a consequence for the reader, said with a condition ("If payment is not received…, we will suspend your service").
  // Not "we'll have to cancel the picnic if it rains": nothing of the reader's is at stake.
  for (const m of findIn(draft, THREATS)) if (sentenceHas(draft, m.sentence, CONDITION) && sentenceHas(draft, m.sentence, READER)) found.push({ ...findingOf('leverage', m), end: clauseEnd(draft, m.end) });
  return dropOverlaps(joinNeighbours(draft, found));
}

const THREATS = new PatternSet([
  `we|i will|would|shall|are_going_to|am_going_to have_to|need_to|be_forced_to|be_obliged_to|have_no_choice_but_to? ${THREAT_VERB}`,
  `will_be|would_be|is_going_to_be|are_going_to_be|get|gets ${CONSEQUENCE}`,
]);
const CONDITION = new Set(['if', 'unless', 'or', 'otherwise', 'failing', 'until', 'after', 'without', 'else']);
const READER = new Set(['you', 'your', 'yours']);

/** A threat is its whole consequence: "we will suspend your service and pass the debt to a collection agency". */
function clauseEnd(draft: Draft, from: number): number {
  const { text } = draft.scan;
  let end = from;
  for (let k = from; k < text.length; k++) {
    const ch = text.charAt(k);
    if (ch === ',' || ch === ';' || ch === ':' || ch === '.' || ch === '!' || ch === '?' || ch === '\n' || ch === '(' || ch === '—') break;
    if (ch !== ' ') end = k + 1;
  }
  return end;
}

/** One finding per passage: where two patterns cover the same words, the first (longest) stays. */
function dropOverlaps(findings: Finding[]): Finding[] {
  const out: Finding[] = [];
  for (const f of [...findings].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = out[out.length - 1];
    if (last !== undefined && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push(f);
  }
  return out;
}
