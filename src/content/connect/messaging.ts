/**
 * C4: recommendations on a draft message, for this recipient's style and, where it helps,
 * the sender's own habits. Each recommendation points at a passage by UTF-16 offsets into the
 * submitted text (JavaScript string indices: `text.slice(start, end)` is the passage).
 *
 * The advice is data (src/content/messaging/advice.json, sender.json, notes.json). The only
 * markup in a recommendation is `<span class="…">`: `rapport-quote` around a quoted passage
 * (escaped), `rapport-sender` around a note on the sender's own style, and `rapport-tentative`
 * around the note that the advice rests on little of the reader's writing. The submitted text is
 * never returned except as an escaped quote of a few words.
 *
 * A reader whose placement is tentative (thin evidence, as their own profile reads it) is not
 * described as fact: every text that states their style has a tentative wording (hedged.ts), and
 * the first recommendation ends with a note saying the advice is tentative, as their profile
 * opens with one. Advice on the writing itself ("split it into simple steps") is the same for
 * everybody. The note on the sender's own habit is hedged the same way for a tentative sender
 * (and for a tentative reader where it speaks of them).
 *
 * One pass over the text (message-scan.ts), then a fixed number of checks over its words
 * and sentences: linear in the text's length.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../shared/html.ts';
import { viewParty, type Party, type Style } from '../party.ts';
import { STYLES, templateProblems } from '../relationship/library.ts';
import { hedgedPairProblems, hedgedProblems, hedgedText, pairText, type Hedged, type HedgedPair } from './hedged.ts';
import { PhraseSet, scanMessage, type Match, type Scan, type Sentence } from './message-scan.ts';
import { fillTemplate, nameSlot, type NameSlot } from './render.ts';
import { isRecord } from '../../shared/records.ts';

export interface MessageRecommendation {
  start: number;
  end: number;
  recommendation: string;
}

/** Longest text accepted (UTF-16 code units); the route answers 413 above it. */
export const MESSAGE_MAX_CHARS = 20_000;
/** At most this many recommendations, the earliest in the text first. */
export const MAX_RECOMMENDATIONS = 15;
/** At most this many recommendations of one kind: the third "ASAP" adds nothing. */
const PER_KIND = 3;
/** Quotes longer than this are cut (on a character boundary) and end with an ellipsis. */
const QUOTE_MAX = 60;

export const CHECKS = [
  'greeting', 'warmth', 'pressure', 'vague', 'hedge', 'exclamation',
  'long_sentence', 'too_long', 'no_figures', 'missing_ask', 'ask_late', 'small_talk', 'reassurance', 'fits', 'short_fits',
] as const;
export type Check = (typeof CHECKS)[number];
export type AdviceTable = Record<Check, Partial<Record<Style, Hedged>>>;
export type SenderTable = Record<Style, Partial<Record<Check, HedgedPair>>>;
/** `tentative`: the note for a reader whose placement is tentative (`{name}`). */
export interface MessagingNotes { tentative: string }
export interface MessagingLibrary { advice: AdviceTable; sender: SenderTable; notes: MessagingNotes }

const LONG_SENTENCE: Readonly<Record<Style, number>> = { D: 20, I: 25, S: 28, C: 35 };
const TOO_LONG: Readonly<Record<Style, number>> = { D: 120, I: 180, S: 220, C: 350 };

const GREETINGS = new PhraseSet([
  'hi', 'hello', 'hey', 'dear', 'good morning', 'good afternoon', 'good evening', 'greetings', 'hiya', 'morning', 'afternoon', 'evening', 'howdy', 'yo',
  // A greeting in another language is still a greeting; the other checks are for English.
  'hola', 'bonjour', 'salut', 'hallo', 'ciao', 'olá', 'oi', 'hej', 'buongiorno', 'guten tag', 'buenos días', 'buenos dias', 'bom dia', 'moin', 'servus',
]);
const WARMTH = new PhraseSet([
  'thanks', 'thank', 'appreciate', 'appreciated', 'hope', 'hoping', 'glad', 'great', 'enjoyed', 'pleasure', 'happy', 'delighted', 'lovely', 'wonderful', 'kind', 'grateful', 'congratulations', 'welcome', 'pleased', 'nice', 'cheers',
  // Thanks in another language is still thanks, as with the greetings above.
  'gracias', 'merci', 'danke', 'grazie', 'obrigado', 'obrigada',
]);
const PRESSURE = new PhraseSet([
  'asap', 'a.s.a.p', 'urgent', 'urgently', 'immediately', 'must', 'right away', 'as soon as possible', 'no later than', 'final notice', 'last chance', 'act now', "don't miss", 'without delay', 'at once', 'non negotiable', 'mandatory', 'today only', 'deadline is today',
]);
const VAGUE = new PhraseSet([
  'huge', 'massive', 'amazing', 'incredible', 'revolutionary', 'game changer', 'game changing', 'best in class', 'world class', 'cutting edge', 'state of the art', 'unbeatable', 'unprecedented', 'industry leading', 'market leading', 'next level', 'seamless', 'tremendous', 'dramatically', 'skyrocket', 'groundbreaking', 'best ever', 'second to none', 'top notch', 'leading edge', 'transformative', 'unmatched', 'unparalleled',
]);
const HEDGES = new PhraseSet([
  'just', 'maybe', 'perhaps', 'i think', 'i guess', 'i feel like', 'sort of', 'kind of', 'hopefully', 'possibly', 'i was wondering', 'i wonder if', 'sorry to bother', 'if you have a moment', 'if it is not too much trouble', "if it's not too much trouble", 'a bit', 'somewhat', 'might be able to',
]);
const SMALL_TALK = new PhraseSet([
  'hope you are well', "hope you're well", 'hope you are doing well', "hope you're doing well", 'hope this email finds you well',
  'hope this finds you well', 'hope all is well', 'how are you', 'how are you doing', 'hope you had a great weekend', 'hope you had a good weekend',
  'hope you had a nice weekend', 'hope your week is going well', 'happy friday', 'happy monday',
]);
const CHANGE = new PhraseSet([
  'change', 'changes', 'changing', 'moving to', 'switching', 'switch to', 'replace', 'replacing', 'restructure', 'restructuring', 'reorganisation', 'reorganization', 'migrate', 'migrating', 'migration', 'transition', 'new process', 'new system', 'going forward',
]);
const REASSURANCE = new PhraseSet([
  'support', 'supported', 'help', 'helping', 'questions', 'happy to', 'glad to', 'no rush', 'your pace', 'together', 'stays the same', 'stay the same', 'will not change', "won't change", 'step by step', 'walk you through', 'here for you', 'reassure',
]);
const ASKS = new PhraseSet([
  'could you', 'can you', 'would you', 'will you', 'let me know', 'please', 'are you free', 'are you available', 'shall we', 'how about', 'let us know', 'can we', 'could we', 'would it be possible', 'i would like you to', 'please confirm', 'reply by', 'let’s', "let's", 'i suggest', 'i propose', 'do you have time', 'would you be open',
  'i need', 'we need you to', "i'd like you to", 'i would like', "i'd like",
  // Asked indirectly, with no question mark: "I wanted to ask whether you might have time…".
  // First person only: "feel free to ask if anything is unclear" and "you may be wondering if…"
  // ask nothing of the reader.
  'i wanted to ask', 'i want to ask', 'writing to ask', 'may i ask', 'can i ask', 'i was wondering if', 'i was wondering whether', 'i wonder if', 'i wonder whether',
  'would you mind', 'do you think you could',
]);
/**
 * Verbs that make a request when they open a sentence ("Send me the Q3 figures by Friday."), as
 * an imperative. Only at the start, so "we send the report monthly" is not an ask.
 */
const IMPERATIVES = new Set([
  'send', 'share', 'review', 'approve', 'sign', 'confirm', 'call', 'tell', 'give', 'check', 'book', 'schedule', 'join', 'reply', 'forward', 'email', 'submit',
  'complete', 'fill', 'prepare', 'choose', 'decide', 'update', 'ring', 'meet', 'come', 'bring', 'answer', 'sort', 'arrange', 'read', 'pick',
]);
/** Second person just before a big word makes it praise of the reader ("you were amazing"), not a claim. */
const SECOND_PERSON = new Set(['you', "you're", "you've", "you'd", 'your', 'yours', 'yourself', 'yourselves']);
const THANKS_AFTER = new Set(['thanks', 'thank', 'congratulations', 'congrats', 'kudos', 'shout']);

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../messaging/${name}.json`, import.meta.url)), 'utf8')) as unknown;
}

/** Every problem in the parsed advice files: known checks and styles, placeholders, hedged variants. */
export function messagingLibraryProblems(raw: { advice: unknown; sender: unknown; notes: unknown }): string[] {
  const problems: string[] = [];
  const known = CHECKS as readonly string[];
  if (!isRecord(raw.advice)) problems.push('advice.json: must be an object');
  else {
    for (const check of CHECKS) if (!isRecord(raw.advice[check])) problems.push(`advice.json ${check}: missing`);
    for (const [check, byStyle] of Object.entries(raw.advice)) {
      if (!known.includes(check)) problems.push(`advice.json ${check}: unknown check`);
      if (!isRecord(byStyle)) continue;
      for (const [style, text] of Object.entries(byStyle)) {
        if (!(STYLES as readonly string[]).includes(style)) problems.push(`advice.json ${check}.${style}: style must be D, I, S or C`);
        problems.push(...hedgedProblems(text, ['name', 'quote', 'words', 'limit']).map((p) => `advice.json ${check}.${style}: ${p}`));
        if (JSON.stringify(text).includes('**')) problems.push(`advice.json ${check}.${style}: no **bold** in message advice (its only markup is <span>)`);
      }
    }
  }
  for (const style of STYLES) {
    const notes = isRecord(raw.sender) ? raw.sender[style] : undefined;
    if (!isRecord(notes)) {
      problems.push(`sender.json ${style}: must be an object`);
      continue;
    }
    for (const [check, note] of Object.entries(notes)) {
      if (!known.includes(check)) problems.push(`sender.json ${style}.${check}: unknown check`);
      problems.push(...hedgedPairProblems(note, []).map((p) => `sender.json ${style}.${check}: ${p}`));
    }
  }
  const tentative = isRecord(raw.notes) ? raw.notes.tentative : undefined;
  if (typeof tentative !== 'string') problems.push('notes.json tentative: must be a string');
  else {
    problems.push(...templateProblems(tentative, ['name']).map((p) => `notes.json tentative: ${p}`));
    if (tentative.includes('**')) problems.push('notes.json tentative: no **bold** in message advice (its only markup is <span>)');
  }
  return problems;
}

let tables: MessagingLibrary | undefined;

/** The advice files, read and checked once: a broken file fails loudly, like the phrase library. */
export function loadMessagingAdvice(): MessagingLibrary {
  if (tables === undefined) {
    const raw = { advice: readJson('advice'), sender: readJson('sender'), notes: readJson('notes') };
    const problems = messagingLibraryProblems(raw);
    if (problems.length > 0) throw new Error(`messaging advice is invalid:\n  ${problems.join('\n  ')}`);
    tables = raw as MessagingLibrary;
  }
  return tables;
}

/** An escaped quote of a passage, cut on a character boundary; `*` is escaped as well. */
function quote(text: string, start: number, end: number): string {
  let cut = Math.min(end, start + QUOTE_MAX);
  // Never split a surrogate pair (an emoji): back off one unit if the cut lands inside one.
  if (cut < end && cut > start) {
    const code = text.charCodeAt(cut);
    if (code >= 0xdc00 && code <= 0xdfff) cut -= 1;
  }
  const body = escapeHtml(text.slice(start, cut)).replaceAll('*', '&#42;');
  return `<span class="rapport-quote">“${body}${cut < end ? '…' : ''}”</span>`;
}

interface Context {
  scan: Scan;
  recipient: Style;
  /** The reader's placement is tentative: texts stating their style take their tentative wording. */
  recipientTentative: boolean;
  sender: Style | null;
  senderTentative: boolean;
  name: NameSlot;
  /** The reader's first name in lower case, to recognise a greeting by name. */
  readerName: string | null;
  advice: AdviceTable;
  senderNotes: SenderTable;
  out: (MessageRecommendation & { check: Check })[];
  counts: Map<Check, number>;
}

function add(ctx: Context, check: Check, start: number, end: number, extra: Record<string, string> = {}): void {
  const advice = ctx.advice[check][ctx.recipient];
  if (advice === undefined || end <= start) return;
  if ((ctx.counts.get(check) ?? 0) >= PER_KIND) return;
  const template = hedgedText(advice, ctx.recipientTentative);
  const slots: Record<string, NameSlot> = { name: ctx.name };
  for (const [key, html] of Object.entries(extra)) slots[key] = { html, fallback: false };
  let recommendation = fillTemplate(template, slots);
  // The note on the sender's habit is said once per kind of issue, not on every occurrence.
  const note = ctx.sender === null ? undefined : ctx.senderNotes[ctx.sender][check];
  if (note !== undefined && !ctx.counts.has(check)) {
    recommendation += ` <span class="rapport-sender">${escapeHtml(pairText(note, ctx.senderTentative, ctx.recipientTentative))}</span>`;
  }
  ctx.out.push({ start, end, recommendation, check });
  ctx.counts.set(check, (ctx.counts.get(check) ?? 0) + 1);
}

function addMatches(ctx: Context, check: Check, matches: readonly Match[]): void {
  for (const m of matches) add(ctx, check, m.start, m.end, { quote: quote(ctx.scan.text, m.start, m.end) });
}

function wholeText(scan: Scan): { start: number; end: number } | null {
  const first = scan.sentences[0];
  const last = scan.sentences[scan.sentences.length - 1];
  return first === undefined || last === undefined ? null : { start: first.start, end: last.end };
}

/** Sentences that ask for something: a question, a request phrase, or an imperative. */
function askSentences(scan: Scan, readerName: string | null): Set<number> {
  const asks = new Set<number>();
  scan.sentences.forEach((s, index) => {
    if (s.question) asks.add(index);
    // The reader's name may come first: "Marisol, send me the figures by Friday."
    const first = scan.tokens[s.firstToken];
    const verb = first !== undefined && first.word === readerName && s.words > 1 ? scan.tokens[s.firstToken + 1] : first;
    if (verb !== undefined && s.words > 1 && IMPERATIVES.has(verb.word)) asks.add(index);
  });
  for (const m of ASKS.find(scan)) asks.add(m.sentence);
  return asks;
}

/**
 * A big word aimed at the reader ("you were amazing", "your huge help", "huge thanks") is
 * praise: warmth to the reader, not a claim that needs a figure.
 */
function isPraise(scan: Scan, m: Match): boolean {
  const k = firstTokenFrom(scan, m.start);
  for (let j = Math.max(0, k - 3); j < k; j++) {
    const token = scan.tokens[j];
    if (token !== undefined && scan.tokenSentence[j] === m.sentence && SECOND_PERSON.has(token.word)) return true;
  }
  const after = scan.tokens[firstTokenFrom(scan, m.end)];
  return after !== undefined && THANKS_AFTER.has(after.word);
}

/** Index of the first token starting at or after `offset` (binary search: the checks stay linear). */
function firstTokenFrom(scan: Scan, offset: number): number {
  let low = 0;
  let high = scan.tokens.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((scan.tokens[mid]?.start ?? Infinity) < offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

function checkOpening(ctx: Context, words: number): void {
  const { scan } = ctx;
  const first: Sentence | undefined = scan.sentences[0];
  const firstToken = scan.tokens[0];
  if (first === undefined || firstToken === undefined) return;
  // Opening with the reader's name ("Zoë, …") greets them as well as "Hi" does.
  const byName = ctx.readerName !== null && firstToken.word === ctx.readerName;
  const greeting = byName || GREETINGS.matchAt(scan, 0) > 0;
  if (!greeting && words >= 3) add(ctx, 'greeting', first.start, first.end);
  const praise = VAGUE.find(scan).some((m) => isPraise(scan, m));
  if ((ctx.recipient === 'I' || ctx.recipient === 'S') && words >= 12 && !WARMTH.has(scan) && !praise) {
    add(ctx, 'warmth', first.start, first.end);
  }
  // An S reader takes change personally: a change with no word of support reads as a threat.
  if (ctx.recipient === 'S' && !REASSURANCE.has(scan)) addMatches(ctx, 'reassurance', CHANGE.find(scan).slice(0, 1));
  // Pleasantries are warmth to I and S readers and a delay to D and C readers.
  if (ctx.recipient === 'D' || ctx.recipient === 'C') addMatches(ctx, 'small_talk', SMALL_TALK.find(scan).slice(0, 1));
}

function checkWording(ctx: Context): void {
  const { scan, recipient } = ctx;
  addMatches(ctx, 'pressure', PRESSURE.find(scan));
  // A claim is vague only when its sentence gives no figure; praise of the reader is no claim.
  addMatches(ctx, 'vague', VAGUE.find(scan).filter((m) => scan.sentences[m.sentence]?.hasDigit !== true && !isPraise(scan, m)));
  const hedges = HEDGES.find(scan);
  // Softness suits I and S readers; only a pile of hedges gets in their way.
  if (recipient === 'D' || recipient === 'C') addMatches(ctx, 'hedge', hedges);
  else if (hedges.length >= 3) addMatches(ctx, 'hedge', hedges.slice(0, 1));
  const runs = scan.exclamations;
  if (recipient === 'I') {
    for (const run of runs.filter((r) => r.end - r.start >= 2)) add(ctx, 'exclamation', run.start, run.end);
  } else if (recipient === 'S') {
    if (runs.length >= 2 || runs.some((r) => r.end - r.start >= 2)) for (const run of runs) add(ctx, 'exclamation', run.start, run.end);
  } else {
    for (const run of runs) add(ctx, 'exclamation', run.start, run.end);
  }
}

/** A closing phrase opening the line: "Thanks,", "Kind regards". */
const SIGN_OFF = /^(?:thanks|thank you|many thanks|thx|best|all the best|best wishes|regards|kind regards|warm regards|best regards|cheers|sincerely|yours|talk soon|speak soon|take care)[,.!]?/i;
/** What may follow it on the line: a name of up to three capitalised words, or nothing. */
const SIGNATURE = /^(?:\s+\p{Lu}[\p{L}'’.-]*){0,3}[.,!]?$/u;
/** A name on its own line: one to three capitalised words, with no full stop ("Dana", "Mary Ann Lee"). */
const NAME_LINE = /^\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*\.?){0,2},?$/u;

/** A closing line ("Thanks,", "Kind regards, Dana Smith", a name), not the body's last sentence. */
function isSignOff(sentence: string, words: number): boolean {
  const line = sentence.trim();
  const closing = SIGN_OFF.exec(line);
  if (closing !== null && SIGNATURE.test(line.slice(closing[0].length))) return true;
  return words <= 3 && NAME_LINE.test(line) && line.toUpperCase() !== line;
}

function checkShape(ctx: Context, words: number): void {
  const { scan, recipient } = ctx;
  for (const s of scan.sentences) {
    if (s.words > LONG_SENTENCE[recipient]) add(ctx, 'long_sentence', s.start, s.end, { words: String(s.words) });
  }
  const whole = wholeText(scan);
  if (whole === null) return;
  if (words > TOO_LONG[recipient]) {
    add(ctx, 'too_long', whole.start, whole.end, { words: String(words), limit: String(TOO_LONG[recipient]) });
  }
  const anyDigit = scan.sentences.some((s) => s.hasDigit);
  if (!anyDigit && ((recipient === 'C' && words >= 20) || (recipient === 'D' && words >= 40))) {
    add(ctx, 'no_figures', whole.start, whole.end);
  }
  const asks = askSentences(scan, ctx.readerName);
  // The ask belongs at the end of the body, before the sign-off ("Thanks,", a name).
  const body = scan.sentences.filter((s) => !isSignOff(scan.text.slice(s.start, s.end), s.words));
  const last = body[body.length - 1] ?? scan.sentences[scan.sentences.length - 1];
  if (asks.size === 0 && last !== undefined && words >= 8) add(ctx, 'missing_ask', last.start, last.end);
  if (recipient === 'D' && asks.size > 0 && words > 60) {
    const firstAsk = Math.min(...asks);
    const at = scan.sentences[firstAsk];
    // Late means the reader has already read most of the message before learning the request.
    if (at !== undefined && scan.tokens.length > 0 && at.firstToken > scan.tokens.length * 0.6) {
      add(ctx, 'ask_late', at.start, at.end);
    }
  }
}

export function recommendMessage(text: string, sender: Party, recipient: Party): MessageRecommendation[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const scan = scanMessage(text.length > MESSAGE_MAX_CHARS ? text.slice(0, MESSAGE_MAX_CHARS) : text);
  const reader = viewParty(recipient);
  const writer = viewParty(sender);
  const { advice, sender: senderNotes, notes } = loadMessagingAdvice();
  const ctx: Context = {
    scan,
    recipient: reader.style,
    recipientTentative: reader.tentative,
    // The same style writes the way this reader likes to read: no note about the sender's habits.
    sender: writer.style === reader.style ? null : writer.style,
    senderTentative: writer.tentative,
    name: nameSlot(reader, 'your contact'),
    readerName: reader.name === null ? null : (reader.name.split(' ')[0] ?? '').toLowerCase(),
    advice,
    senderNotes,
    out: [],
    counts: new Map(),
  };
  const words = scan.tokens.length;
  checkOpening(ctx, words);
  checkWording(ctx);
  checkShape(ctx, words);
  // Saying nothing would leave the writer guessing whether the draft was checked at all. Under
  // eight words only the wording was checked (the shape checks need more): that is all it says.
  const whole = wholeText(scan);
  if (ctx.out.length === 0 && whole !== null && words > 0) add(ctx, words >= 8 ? 'fits' : 'short_fits', whole.start, whole.end);
  const out = ctx.out
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .slice(0, MAX_RECOMMENDATIONS)
    .map(({ start, end, recommendation }) => ({ start, end, recommendation }));
  // All of it rests on the reader's style: said once, with the first recommendation.
  const first = out[0];
  if (reader.tentative && first !== undefined) {
    first.recommendation += ` <span class="rapport-tentative">${fillTemplate(notes.tentative, { name: ctx.name })}</span>`;
  }
  return out;
}
