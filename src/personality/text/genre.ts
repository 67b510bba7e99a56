import type { WordInfo } from './lexicon.ts';
import { countWords } from './matches.ts';

/**
 * What kind of writing a text is: a work email, a first-person profile, a third-person bio, a
 * resume, or free personal writing such as the essays the model first learned from. Writing is
 * read against writing of its own kind (norms.ts): an email is terser than an essay, a bio
 * speaks of its subject in the third person, and neither says anything about the writer by it.
 *
 * The kind is guessed from the text's shape (greeting and sign-off lines, headings and bullets,
 * pronouns, a name opening the text) by a small softmax model stored in the model file and
 * trained on the labelled corpora (training/genre.ts). A caller who knows the kind says so
 * (Connect's `text_type`, group A's optional `text_type`): `email`, `bio` and `resume` fix it,
 * `various` leaves the guess to the text.
 */

export const GENRES = ['personal', 'email', 'profile', 'bio', 'resume'] as const;
export type Genre = (typeof GENRES)[number];

/** The contract's `text_type` values. */
export const TEXT_TYPES = ['email', 'various', 'bio', 'resume'] as const;
export type TextType = (typeof TEXT_TYPES)[number];

export const GENRE_FEATURES = [
  'greeting_line',
  'sign_off_line',
  'name_last_line',
  'headings',
  'bullet_lines',
  'date_ranges',
  'contact_details',
  'first_person',
  'third_person',
  'second_person',
  'opens_with_name',
  'log_words',
  'lines_per_100_words',
  'unfinished_lines',
  'musing',
] as const;

export interface GenreModel {
  /** Standardiser of GENRE_FEATURES. */
  mean: readonly number[];
  sd: readonly number[];
  /** Per genre (GENRES order): one weight per feature, then the intercept. */
  weights: readonly (readonly number[])[];
}

const GREETING = /^(?:hi|hello|hey|hiya|dear|good (?:morning|afternoon|evening)|greetings|morning|afternoon|team|all|everyone|folks|colleagues)\b[^.?]{0,40}[,!:—–-]?$/i;
const SIGN_OFF = /^(?:best|thanks|thank you|many thanks|thanks again|cheers|regards|kind regards|best regards|warm regards|warmly|sincerely|yours|talk soon|speak soon|all the best|take care|with thanks|with gratitude|thx|ta|best wishes|warm wishes|onwards|go team)\b[^.?]{0,30}$/i;
const NAME_LINE = /^[\p{Lu}][\p{L}'’.-]*(?:\s+[\p{Lu}][\p{L}'’.-]*){0,2}$/u;
const HEADING = /^(?:[A-Z][A-Z &/-]{2,40}|summary|profile|experience|work experience|professional experience|education|skills|key skills|core skills|certifications|achievements|employment history|career history|languages|interests)\s*:?$/i;
const BULLET = /^\s*(?:[-•·▪*–—]|\d{1,2}[.)])\s+/;
const DATE_RANGE = /\b(?:19|20)\d{2}\s*(?:[-–—]|to)\s*(?:(?:19|20)\d{2}|present|current|now)\b/i;
const CONTACT = /@[\w-]+\.[a-z]|\+?\d[\d ().-]{7,}\d|linkedin\.com/i;
/** Contact details head a resume: only its opening is searched for them. */
const CONTACT_WINDOW = 400;
const OPENS_WITH_NAME = /^\s*(?:Dr\.?\s+|Prof\.?\s+)?[\p{Lu}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+){1,2}\s+(?:is|was|has|leads|led|brings|joined|serves|heads|works|runs|oversees|manages|spent|began|started|holds|builds|helps|founded|co-founded|directs|teaches|specialises|specializes)\b/u;
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'myself', "i'm", "i've", "i'll", "i'd"]);
const THIRD_PERSON = new Set(['he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', "he's", "she's"]);
const SECOND_PERSON = new Set(['you', 'your', 'yours', 'yourself', "you're", "you've", "you'll", "you'd"]);
const MUSING = new Set(['think', 'feel', 'guess', 'really', 'like', 'know', 'wonder', 'maybe', 'probably', 'tired', 'weird', 'anyway', 'sleep', 'class', 'roommate', 'boyfriend', 'girlfriend', 'mom', 'dad']);

/** A word's marks: its person when it is a pronoun of one (the sets are disjoint), and whether it is a musing word. */
const FIRST = 1;
const THIRD = 2;
const SECOND = 4;
const MUSES = 8;

function marksOf(word: string): number {
  const person = FIRST_PERSON.has(word) ? FIRST : THIRD_PERSON.has(word) ? THIRD : SECOND_PERSON.has(word) ? SECOND : 0;
  return person | (MUSING.has(word) ? MUSES : 0);
}

/*
 * share and lineShare are functions of the module rather than closures made per text: a closure
 * is allocated on every call, and named by tsx's `__name` (a property definition) from source.
 */
/** Per 100 of a text's `words` words, log-compressed. */
function share(count: number, words: number): number {
  return Math.log1p((100 * count) / words);
}

/** The share of `lines` that pass `test` (0 without lines). */
function lineShare(lines: readonly string[], test: (line: string) => boolean): number {
  return lines.length === 0 ? 0 : lines.filter(test).length / lines.length;
}

/**
 * The shape measures of a raw text, in GENRE_FEATURES order. `words` are its lower-cased words;
 * `infos`, when given, their lexicon entries (words.ts), which keep each word's marks between texts.
 */
export function genreFeatures(raw: string, words: readonly string[], infos?: readonly WordInfo[]): Float64Array {
  // Split at line feeds alone: the trim takes the carriage return of a CRLF ending, as /\r?\n/ would.
  const lines = raw.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const first = lines[0] ?? '';
  const tail = lines.slice(-3);
  const last = lines[lines.length - 1] ?? '';
  const n = Math.max(words.length, 1);
  let firstPerson = 0;
  let thirdPerson = 0;
  let secondPerson = 0;
  let musing = 0;
  for (let i = 0; i < words.length; i++) {
    const info = infos?.[i];
    let marks: number;
    if (info === undefined) marks = marksOf(words[i] ?? '');
    else {
      if (info.genreMarks < 0) info.genreMarks = marksOf(words[i] ?? '');
      marks = info.genreMarks;
    }
    if (marks & FIRST) firstPerson++;
    else if (marks & THIRD) thirdPerson++;
    else if (marks & SECOND) secondPerson++;
    if (marks & MUSES) musing++;
  }
  return Float64Array.from([
    lines.length > 1 && countWords(first) <= 6 && GREETING.test(first) ? 1 : 0,
    lines.length > 1 && tail.some((line) => SIGN_OFF.test(line)) ? 1 : 0,
    lines.length > 2 && NAME_LINE.test(last) ? 1 : 0,
    Math.min(lines.filter((line) => line.length <= 45 && HEADING.test(line) && !/[.!?]$/.test(line)).length, 6) / 6,
    lineShare(lines, (line) => BULLET.test(line)),
    DATE_RANGE.test(raw) ? 1 : 0,
    CONTACT.test(raw.slice(0, CONTACT_WINDOW)) ? 1 : 0,
    share(firstPerson, n),
    share(thirdPerson, n),
    share(secondPerson, n),
    OPENS_WITH_NAME.test(first) ? 1 : 0,
    Math.log1p(words.length),
    Math.log1p((100 * lines.length) / n),
    lineShare(lines, (line) => !/[.!?…:"')\]]$/.test(line)),
    share(musing, n),
  ]);
}

/** Genres a caller's `text_type` allows. */
export function genresAllowed(textType: TextType | undefined): readonly Genre[] {
  if (textType === 'email' || textType === 'bio' || textType === 'resume') return [textType];
  return GENRES;
}

/** Softmax probabilities over GENRES, zero outside `allowed`. */
export function genreProbabilities(model: GenreModel, features: Float64Array, allowed: readonly Genre[] = GENRES): Float64Array {
  const logits = GENRES.map((genre, g) => {
    if (!allowed.includes(genre)) return Number.NEGATIVE_INFINITY;
    const row = model.weights[g] ?? [];
    let z = row[features.length] ?? 0;
    for (let j = 0; j < features.length; j++) z += (row[j] ?? 0) * (((features[j] ?? 0) - (model.mean[j] ?? 0)) / (model.sd[j] || 1));
    return z;
  });
  const top = Math.max(...logits);
  const exps = logits.map((z) => (Number.isFinite(z) ? Math.exp(z - top) : 0));
  const total = exps.reduce((sum, v) => sum + v, 0) || 1;
  return Float64Array.from(exps, (v) => v / total);
}

/** The most likely genre. */
export function topGenre(probabilities: Float64Array): Genre {
  let best = 0;
  probabilities.forEach((p, g) => {
    if (p > (probabilities[best] ?? 0)) best = g;
  });
  return GENRES[best] ?? 'personal';
}
