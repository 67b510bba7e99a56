/**
 * The ask: what the draft wants the reader to do. A sentence asks when it is a question, a
 * request ("could you", "please send", "let me know what you think", "I wanted to ask whether"),
 * an instruction ("Send me the figures", "If that doesn't work, reply with two times", "All claims
 * must be submitted there"). An offer to answer questions ("Let me know if you have any
 * questions", "Feel free to reach out") or "Looking forward to hearing from you" asks nothing, and
 * "Please find attached" requests nothing. A thank-you or congratulation note needs no ask.
 *
 * Also here: where the body ends, before the sign-off ("Thanks,", "Kind regards, Dana", a name
 * or a team on its own line).
 */
import { atClauseStart, findIn, sentenceWords, type Draft } from './draft.ts';
import { PatternSet } from './patterns.ts';

const ASKS = new PatternSet([
  'could|can|would|will you', 'let me|us know', 'please|kindly', 'are you free|available|open|around|able', 'shall|should|can|could|may we|i',
  'how|what about', 'would it be possible|possible|ok|okay|alright|helpful|easier', 'would it help|work|suit', 'i|we suggest|propose|recommend that? you',
  'let us', 'do you have time|a_moment|a_minute|any', 'do|would you want|like|mind|think|prefer', 'would you be open|up|able|willing', 'is there any chance',
  'any chance', 'i|we need', 'i|we would like|love', 'i|we would appreciate|be_grateful', 'i|we want you to', 'remember to', 'make sure', 'do_not forget|miss',
  'i|we wanted|want to ask', 'writing to ask', 'i|we was|were wondering if|whether', 'i wonder if|whether', 'wondering if|whether you', 'keen to hear|know|get',
  'you|everyone|everybody|staff|employees|managers|each_of_you ~2 must|need_to|needs_to|have_to|has_to|should|will_need_to|are_required_to|is_required_to',
  'must|need_to|needs_to|should|has_to|have_to be submitted|completed|signed|returned|sent|done|filed|approved|received|paid|uploaded|finished|booked|updated|reviewed',
  'reply|respond ~2 by|before',
]);
/** A request phrase that asks nothing: an offer to answer questions, a formula. */
const NOT_ASKS = new PatternSet([
  'let me|us know if|should you|when ~3 questions|anything|need|help|issues|problems|concerns',
  'please find|see|note|do_not_hesitate|feel_free|disregard|ignore',
  'please let me know if|should ~3 questions|anything|need|help|issues|problems',
]);

/**
 * Verbs that make a request when they open a sentence or a clause ("Send me the Q3 figures by
 * Friday.", "If that doesn't work, reply with two times"): imperatives. Not mid-clause, so "we send
 * the report monthly" asks nothing.
 */
const IMPERATIVES = new Set([
  'send', 'share', 'review', 'approve', 'sign', 'confirm', 'call', 'tell', 'give', 'check', 'book', 'schedule', 'join', 'reply', 'respond', 'forward', 'email', 'submit',
  'complete', 'fill', 'prepare', 'choose', 'decide', 'update', 'ring', 'meet', 'come', 'bring', 'answer', 'sort', 'arrange', 'read', 'pick', 'register', 'click', 'pay',
  'use', 'hold', 'go', 'plan', 'grab', 'add', 'remind', 'ping', 'drop', 'try', 'consider', 'keep', 'make', 'ask', 'upload', 'install', 'run', 'test', 'fix', 'chase',
  'attend', 'rsvp', 'vote', 'return', 'accept', 'write', 'draft', 'take', 'look', 'start', 'stop', 'switch', 'move', 'loop', 'need', 'act', 'order', 'buy', 'print',
  'list', 'collect', 'note', 'upgrade', 'renew', 'subscribe', 'apply', 'claim', 'enrol', 'enroll', 'save', 'visit', 'reserve', 'flag', 'escalate', 'push', 'cancel', 'delete', 'remove', 'invite', 'introduce', 'assign', 'finish', 'post', 'publish', 'shout', 'get',
]);
/** After these, the verb that follows is still an imperative: "Please send…", "Just reply YES…". */
const SOFTENERS = new Set(['please', 'just', 'kindly', 'simply', 'also', 'then', 'now', 'so', 'and', 'do']);

/** Sentences that ask for something. */
export function askSentences(draft: Draft, readerName: string | null): Set<number> {
  const { scan, words } = draft;
  const asks = new Set<number>();
  const notAsks = new Set(findIn(draft, NOT_ASKS).map((m) => m.from));
  for (const m of findIn(draft, ASKS)) if (!notAsks.has(m.from)) asks.add(m.sentence);
  scan.sentences.forEach((s, index) => {
    if (s.question) asks.add(index);
    const { from, to } = sentenceWords(draft, index);
    for (let i = from; i < to; i++) {
      const w = words[i]?.w ?? '';
      if (!IMPERATIVES.has(w) || !imperativeAt(draft, i, from, readerName)) continue;
      asks.add(index);
      break;
    }
  });
  return asks;
}

function imperativeAt(draft: Draft, i: number, from: number, readerName: string | null): boolean {
  const { words } = draft;
  let start = i;
  while (start > from && SOFTENERS.has(words[start - 1]?.w ?? '')) start--;
  // The reader's name may come first: "Marisol, send me the figures by Friday."
  if (start === from + 1 && readerName !== null && words[from]?.w === readerName) return true;
  if (start === from) return to(draft, i);
  return atClauseStart(draft, start) && to(draft, i);
}

/** "Note" and "need" open requests only before something to do: "Need the Q2 file", not "Need to say…". */
function to(draft: Draft, i: number): boolean {
  const next = draft.words[i + 1]?.w;
  return next !== undefined && next !== 'to' && next !== 'that';
}

const THANKS_OPENING = new Set(['thank', 'thanks', 'congratulations', 'congrats', 'kudos', 'grateful', 'appreciate', 'bravo', 'cheers']);
/** A note that also sends something, or prices it, is more than thanks. */
const BUSINESS = new Set(['attached', 'attachment', 'enclosed', 'here', 'promised', 'proposal', 'quote', 'invoice', 'price', 'pricing', 'contract', 'offer', 'draft', 'deck', 'one-pager']);

/** A thank-you or congratulation note: its first sentence after the greeting thanks or congratulates, and it sends nothing. */
export function isThanksNote(draft: Draft, body: readonly number[]): boolean {
  const first = body.find((index) => !greetingOnly(draft, index));
  if (first === undefined) return false;
  const { from, to: end } = sentenceWords(draft, first);
  let thanks = false;
  for (let i = from; i < Math.min(end, from + 12); i++) if (THANKS_OPENING.has(draft.words[i]?.w ?? '')) thanks = true;
  if (!thanks) return false;
  for (const index of body) {
    const range = sentenceWords(draft, index);
    for (let i = range.from; i < range.to; i++) if (BUSINESS.has(draft.words[i]?.w ?? '')) return false;
  }
  return true;
}

/** A line that only greets: "Hi Marcus,", "Dear Ms Okafor,". */
export function greetingOnly(draft: Draft, index: number): boolean {
  const s = draft.scan.sentences[index];
  if (s === undefined) return false;
  const line = draft.scan.text.slice(s.start, s.end).trim();
  return index === 0 && s.words <= 4 && /[,!:]$|^\S+$/.test(line) && !line.endsWith('.');
}

const CLOSINGS = [
  'thanks', 'thank you', 'thanks again', 'thanks so much', 'thanks a lot', 'many thanks', 'with thanks', 'thx', 'thanks in advance', 'best', 'all the best', 'best wishes',
  'warm wishes', 'warmest wishes', 'regards', 'kind regards', 'warm regards', 'best regards', 'warmest regards', 'cheers', 'sincerely', 'yours', 'yours sincerely',
  'yours truly', 'yours faithfully', 'faithfully', 'talk soon', 'speak soon', 'take care', 'warmly', 'see you soon', 'love', 'x', 'xx', 'xo', 'respectfully',
];
/** A closing phrase opening the line: "Thanks,", "Kind regards" (longest first, so "Yours sincerely" is not read as "Yours"). */
const SIGN_OFF = new RegExp(`^(?:${[...CLOSINGS].sort((a, b) => b.length - a.length).join('|')})[,.!]?`, 'i');
/** What may follow it on the line: a name of up to three capitalised words, or nothing. */
const SIGNATURE = /^(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}[.,!]?$/u;
/** A name or a team on its own line: one to four capitalised words ("Dana", "Accounts Receivable", "The People Team"), no full stop. */
const NAME_LINE = /^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*\.?){0,3},?$|^\p{Lu}[\p{L}'’-]*\s+(?:team|support|desk)$/u;

function isSignOffLine(line: string): boolean {
  const closing = SIGN_OFF.exec(line);
  return closing !== null && SIGNATURE.test(line.slice(closing[0].length));
}

/** The body's sentences: without the sign-off and the signature lines after it, nor a trailing name. */
export function bodySentences(draft: Draft): number[] {
  const { scan } = draft;
  const lines = scan.sentences.map((s) => scan.text.slice(s.start, s.end).trim());
  let end = lines.length;
  // The last sign-off line ends the body when only short lines (a name, a title) follow it.
  for (let i = lines.length - 1; i >= 1 && i >= lines.length - 4; i--) {
    const line = lines[i] ?? '';
    if (isSignOffLine(line) && lines.slice(i + 1).every((l) => l.split(/\s+/).length <= 4 && !/[.?]$/.test(l))) {
      end = i;
      break;
    }
  }
  while (end > 1 && (scan.sentences[end - 1]?.words ?? 0) <= 4 && NAME_LINE.test(lines[end - 1] ?? '') && (lines[end - 1] ?? '').toUpperCase() !== lines[end - 1]) end--;
  return Array.from({ length: end }, (_, i) => i);
}
