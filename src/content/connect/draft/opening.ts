/**
 * The opening: a greeting, and whom it greets. A draft that opens "Hi Claire," to Chloé greets
 * someone else, the first thing its reader notices; "Hi Kate" to Katherine, "Dear Ms Okafor",
 * "Hi team" or "Hi Priya and Tom" (to Tom) greet the reader. The reader's first name is their
 * profile's.
 */
import type { Draft, Finding } from './draft.ts';
import { sameFirstName } from './names.ts';
import { PatternSet } from './patterns.ts';

const GREETINGS = new PatternSet([
  'hi|hello|hey|dear|greetings|hiya|howdy|yo|morning|afternoon|evening|hallo|hola|bonjour|salut|ciao|olá|oi|hej|buongiorno|moin|servus|aloha',
  'good morning|afternoon|evening|day',
  'guten tag|morgen',
  'buenos días|dias',
  'bom dia',
]);
/** Right after a greeting these greet a group, or nobody by name. */
const GROUPS = new Set(['team', 'all', 'everyone', 'everybody', 'there', 'folks', 'guys', 'both', 'again', 'friends', 'colleagues', 'y', 'you', 'gang', 'people', 'crew']);
/** A title: the first name is not given, so it cannot be wrong. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'madam', 'madame', 'monsieur', 'herr', 'frau', 'señor', 'señora', 'sr', 'sra']);
/** Capitalised words that open a draft with a comma or dash and are no name ("Thanks, …", "Update: …"). */
const NOT_NAMES = new Set([
  'thanks', 'thank', 'sorry', 'so', 'well', 'ok', 'okay', 'yes', 'no', 'also', 'however', 'unfortunately', 'apologies', 'congrats', 'congratulations', 'update', 'quick',
  'please', 'firstly', 'first', 'again', 'honestly', 'basically', 'great', 'good', 'note', 'fyi', 'reminder', 'important', 'urgent', 'today', 'tomorrow', 'yesterday', 'finally',
  'btw', 'ps', 're', 'fwiw', 'agreed', 'done', 'approved', 'noted', 'understood', 'sure', 'absolutely', 'perfect', 'cool', 'right', 'now', 'then', 'sadly', 'luckily',
  'fortunately', 'anyway', 'besides', 'meanwhile', 'otherwise', 'instead', 'still', 'oh', 'ah', 'wow', 'alright', 'welcome', 'question', 'subject', 'summary', 'context',
  'background', 'status', 'agenda', 'action', 'actions', 'heads', 'team', 'all', 'everyone', 'folks', 'guys', 'friends', 'colleagues', 'hey', 'hi', 'hello', 'dear', 'and',
  'but', 'yesterday', 'next', 'last', 'this', 'that', 'here', 'there', 'just', 'as', 'per', 'following', 'regarding', 'attached', 'important', 'correction', 'news',
  'cheers', 'thx', 'hm', 'hmm', 'hopefully', 'actually', 'tonight', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february',
  'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'morning', 'afternoon', 'evening', 'ps', 'nb', 'edit',
]);

export interface Opening {
  /** The draft opens with a greeting, or with a name followed by a comma or dash. */
  greeted: boolean;
  /** The names greeted (empty for a group, a title or no greeting), by their offsets. */
  names: { start: number; end: number; name: string }[];
}

function capitalised(text: string): boolean {
  const first = text.charAt(0);
  return first !== first.toLowerCase() && first === first.toUpperCase();
}

/** Names right after the greeting's last token: capitalised words, "and" or "&" between them, up to the first punctuation. */
function namesAfter(draft: Draft, token: number): Opening['names'] {
  const { scan } = draft;
  const names: Opening['names'] = [];
  const sentence = scan.tokenSentence[token];
  for (let k = token + 1; k < scan.tokens.length && k <= token + 6 && scan.tokenSentence[k] === sentence; k++) {
    const t = scan.tokens[k];
    const prev = scan.tokens[k - 1];
    if (t === undefined || prev === undefined) break;
    const between = scan.text.slice(prev.end, t.start);
    // "Hi, Dana": a comma may follow the greeting word itself.
    if (!/^[\s&]*$/.test(between) && !(k === token + 1 && /^,\s+$/.test(between))) break;
    if (t.word === 'and') continue;
    if (TITLES.has(t.word) || GROUPS.has(t.word)) return [];
    const raw = scan.text.slice(t.start, t.end);
    if (!capitalised(raw)) break;
    names.push({ start: t.start, end: t.end, name: raw });
  }
  return names;
}

export function readOpening(draft: Draft, readerName: string | null): Opening {
  const { scan, words } = draft;
  const first = scan.tokens[0];
  if (first === undefined) return { greeted: false, names: [] };
  const greeting = GREETINGS.matchAt(scan, words, 0);
  if (greeting !== null) return { greeted: true, names: namesAfter(draft, words[greeting.to]?.token ?? 0) };
  const raw = scan.text.slice(first.start, first.end);
  // Opening with the reader's own name greets them as well as "Hi" does.
  if (readerName !== null && sameFirstName(raw, readerName)) return { greeted: true, names: [{ start: first.start, end: first.end, name: raw }] };
  // "Marco, the board pack is attached." / "Kofi — the deck is due Friday."
  const after = scan.text.slice(first.end, first.end + 3);
  if (capitalised(raw) && !NOT_NAMES.has(first.word) && /^(?:,|\s?[—–]|\s-\s)/.test(after)) return { greeted: true, names: [{ start: first.start, end: first.end, name: raw }] };
  return { greeted: false, names: [] };
}

/** The greeting names someone, and nobody it names is the reader. */
export function findWrongName(draft: Draft, readerName: string | null, opening: Opening): Finding[] {
  if (readerName === null || opening.names.length === 0) return [];
  if (opening.names.some((n) => sameFirstName(n.name, readerName))) return [];
  const name = opening.names[0];
  return name === undefined ? [] : [{ check: 'wrong_name', start: name.start, end: name.end, sentence: draft.scan.tokenSentence[0] ?? 0 }];
}
