/**
 * Reads labelled text (a resume, a profile) the way a person would: headings, field
 * labels, contact details, dates and lists of skills are the form's words, not the
 * author's, so only the sentences the person wrote are kept. Works line by line; each
 * line meets a handful of regular expressions, never one per word, and costs time linear
 * in its length whatever its shape (see matches.ts for the patterns that needed help).
 */
import { bareDomainFinder, cached, countWords, emailFinder, firstOf, isRegExpSpace, regexFinder, replaceAll } from './matches.ts';

/** Section headings of resumes and profiles (compared lower-case, without a colon). */
const HEADINGS = new Set([
  'experience', 'work experience', 'professional experience', 'employment', 'employment history', 'work history', 'career history',
  'education', 'education and training', 'academic background', 'skills', 'technical skills', 'key skills', 'core competencies',
  'competencies', 'expertise', 'areas of expertise', 'summary', 'professional summary', 'career summary', 'profile', 'professional profile',
  'about', 'about me', 'bio', 'biography', 'objective', 'career objective', 'certifications', 'certificates', 'licenses', 'projects',
  'selected projects', 'languages', 'interests', 'hobbies', 'hobbies and interests', 'references', 'references available upon request',
  'awards', 'honors', 'honours', 'achievements', 'accomplishments', 'publications', 'volunteer', 'volunteering', 'volunteer experience',
  'contact', 'contact information', 'contact details', 'personal details', 'personal information', 'courses', 'training', 'qualifications',
  'activities', 'affiliations', 'memberships', 'highlights', 'curriculum vitae', 'resume', 'résumé', 'cv', 'recommendations', 'tools', 'tech stack',
]);

/** No heading is longer than this; lower-casing never shortens a string, so a longer line is no heading of the list. */
const LONGEST_HEADING = Math.max(...[...HEADINGS].map((heading) => heading.length));

/** Field labels whose value is the author's own prose: the label goes, the value stays. */
const PROSE_LABELS = new Set(['summary', 'bio', 'biography', 'about', 'about me', 'objective', 'profile', 'description', 'overview', 'introduction', 'statement', 'personal statement', 'notes']);

/** Field labels whose value is data (names, roles, places, dates, lists): the whole line goes. */
const DATA_LABELS = new Set([
  'name', 'full name', 'title', 'job title', 'headline', 'position', 'role', 'company', 'employer', 'organisation', 'organization',
  'location', 'address', 'city', 'country', 'email', 'e-mail', 'mail', 'phone', 'tel', 'telephone', 'mobile', 'cell', 'fax', 'website',
  'web', 'url', 'linkedin', 'github', 'twitter', 'portfolio', 'skills', 'languages', 'tools', 'technologies', 'interests', 'hobbies',
  'dates', 'date', 'period', 'duration', 'from', 'to', 'degree', 'school', 'university', 'gpa', 'grade', 'major', 'minor', 'industry',
  'nationality', 'date of birth', 'dob', 'birthday', 'age', 'gender', 'citizenship', 'visa', 'availability', 'salary', 'references',
  'certifications', 'education', 'experience', 'department', 'team', 'manager', 'reports to', 'client', 'clients', 'keywords', 'tags',
]);

const BULLET = /^[\s•·▪‣◦●○■□➢►▶✓✔*+>–—-]+|^\s*(?:\d{1,2}|[a-z])[.)]\s+/i;
const LABEL = /^([A-Za-z][A-Za-z /&-]{0,30}?)\s*[:：]\s*(.*)$/;
/** First half of the URL pattern; the second, a bare domain (`acme.io/jobs`), is bareDomainFinder. */
const WEB_ADDRESS = /\b(?:https?:\/\/|www\.)\S+/gi;
/** What a web address or a bare domain cannot be without: `http://`, `https://`, `www.` or a common ending. */
const WEB_OR_DOMAIN_HINT = /https?:\/\/|www\.|\.(?:com|org|net|io|dev|me|co|ai)/i;
const PHONE = /(?:\+?\d[\d\s().-]{6,}\d)/g;
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = `(?:${MONTH}\\s+\\d{4}|\\d{1,2}[/.]\\d{4}|\\d{4}[/.-]\\d{1,2}|\\d{4})`;
const DATE_RANGE = new RegExp(`${DATE}\\s*(?:[-–—]|to|until)\\s*(?:${DATE}|present|current|now|today)|\\b${MONTH}\\s+\\d{4}\\b`, 'gi');
const PAGE_MARKER = /^(?:page\s*)?\d{1,3}(?:\s*(?:of|\/)\s*\d{1,3})?$|^-\s*\d{1,3}\s*-$/i;
/** `/[.!?…]["')\]]?$/.test(line)` from the line's last two characters: the pattern tried every position of the line. */
function endsSentence(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  if (isSentenceMark(last)) return true;
  return (last === 34 || last === 39 || last === 41 || last === 93) && isSentenceMark(line.charCodeAt(line.length - 2));
}

/** `[.!?…]` */
function isSentenceMark(code: number): boolean {
  return code === 46 || code === 33 || code === 63 || code === 0x2026;
}
/**
 * `\s*[|]\s*` and a trim of separators, each with a lookbehind so that a long run of spaces
 * or separators is tried once at its start rather than from each of its characters. Same
 * matches: a match that starts with spaces starts at the first of them (from a later one, the
 * earlier one would have started it), but one may start at the `|` itself right after spaces
 * that the previous match took ("|\r|": the second `|` follows the `\r` the first one ate);
 * the trailing run starts after a character outside the run.
 */
const PIPE = /(?:(?<!\s)\s+)?\|\s*/g;
const EDGE_SEPARATORS = /^[\s,;:–—-]+|(?<![\s,;:–—-])[\s,;:–—-]+$/g;
/** A list of short items: "Python, SQL, Docker | Kubernetes". */
/** Every date, date range and phone number holds a digit. */
const DIGIT = /[0-9]/;
/** Every alternative of DATE_RANGE holds four digits in a row (a year): most lines with a digit hold none. */
const FOUR_DIGITS = /[0-9]{4}/;
/**
 * Whether `replace(/\s+/g, ' ')` would change the line: white space other than a space, or a
 * space followed by white space. One regular expression: faster here than a loop over the characters.
 */
const NEEDS_SPACE_FOLDING = /[^\S ]| \s/;

/** `[\s,;:–—-]`: EDGE_SEPARATORS can only match a line that starts or ends with one. */
function isEdgeSeparator(code: number): boolean {
  return isRegExpSpace(code) || code === 44 || code === 59 || code === 58 || code === 45 || code === 0x2013 || code === 0x2014;
}

function wordsIn(text: string): number {
  return countWords(text);
}

/** `[,;|·•/]`: what separates the items of a list. */
function isListSeparator(code: number): boolean {
  return code === 44 || code === 59 || code === 124 || code === 0xb7 || code === 0x2022 || code === 47;
}

/**
 * A list of short items: at least three, of three words or fewer on average. The items are the
 * parts between separators that hold more than white space, their words runs of non-space
 * (as splitting the line at each separator and counting each part's words would find), counted
 * in one pass over the line.
 */
export function isList(line: string): boolean {
  let items = 0;
  let words = 0;
  let wordsInItem = 0;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const code = line.charCodeAt(i);
    // A letter or a digit, most of any line: neither a separator nor a space, so it is in a word.
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)) {
      if (!inWord) wordsInItem++;
      inWord = true;
      continue;
    }
    if (isListSeparator(code)) {
      if (wordsInItem > 0) items++;
      words += wordsInItem;
      wordsInItem = 0;
      inWord = false;
      continue;
    }
    const space = isRegExpSpace(code);
    if (!space && !inWord) wordsInItem++;
    inWord = !space;
  }
  if (wordsInItem > 0) items++;
  words += wordsInItem;
  return items >= 3 && words / items <= 3;
}

/** `countWords(text) <= most`, without counting past it (a line of prose has hundreds). */
function hasAtMostWords(text: string, most: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isRegExpSpace(text.charCodeAt(i));
    if (!space && !inWord && ++words > most) return false;
    inWord = !space;
  }
  return true;
}

/** "Senior Product Manager, Acme Corp": names of roles, places and degrees are title-cased. */
function isTitleCased(line: string): boolean {
  const words = line.split(/[\s,]+/).filter((word) => /^[A-Za-z]/.test(word));
  if (words.length === 0) return false;
  const capitalised = words.filter((word) => /^[A-Z]/.test(word)).length;
  return capitalised / words.length >= 0.8;
}

export function isHeading(line: string): boolean {
  // Only a line holding a colon can end in one.
  const bare = (line.includes(':') || line.includes('：') ? line.replace(/[:：]\s*$/, '') : line).trim();
  if (bare.length <= LONGEST_HEADING && HEADINGS.has(bare.toLowerCase())) return true;
  // Short lines in capitals ("WORK HISTORY") are headings whatever they say.
  return hasAtMostWords(bare, 5) && /[A-Z]/.test(bare) && bare === bare.toUpperCase() && !endsSentence(bare);
}

/** One line of labelled text → the author's prose in it, or '' when there is none. */
function cleanLine(rawLine: string): string {
  let line = rawLine.replace(BULLET, '').trim();
  if (line === '' || PAGE_MARKER.test(line) || isHeading(line)) return '';

  const labelled = LABEL.exec(line);
  if (labelled !== null) {
    const label = (labelled[1] ?? '').trim().toLowerCase();
    if (DATA_LABELS.has(label)) return '';
    if (PROSE_LABELS.has(label)) line = (labelled[2] ?? '').trim();
  }

  // Each pattern is tried only on a line holding a character it cannot match without (most
  // lines of prose hold no `@`, digit or `|`): the same result for less work per line.
  if (line.includes('@')) line = replaceAll(line, emailFinder(), ' ');
  // `web address | bare domain`: the leftmost of the two, the web address on a tie.
  if (WEB_OR_DOMAIN_HINT.test(line)) line = replaceAll(line, firstOf(cached(regexFinder(WEB_ADDRESS)), cached(bareDomainFinder())), ' ');
  if (DIGIT.test(line)) line = (FOUR_DIGITS.test(line) ? line.replace(DATE_RANGE, ' ') : line).replace(PHONE, ' ');
  if (line.includes('|')) line = line.replace(PIPE, ', ');
  if (NEEDS_SPACE_FOLDING.test(line)) line = line.replace(/\s+/g, ' ');
  if (line !== '' && (isEdgeSeparator(line.charCodeAt(0)) || isEdgeSeparator(line.charCodeAt(line.length - 1)))) line = line.replace(EDGE_SEPARATORS, '');
  if (line === '' || isList(line)) return '';
  // A fragment without a verb-length body or an ending ("Senior Engineer, Acme") is a
  // title or a place, not something the person said.
  if (!endsSentence(line) && (wordsIn(line) < 5 || isTitleCased(line))) return '';
  return endsSentence(line) ? line : `${line}.`;
}

/**
 * Lines a layout wrapped (a PDF's columns, an email client's 72 characters) joined back into the
 * line the writer wrote: a line that does not end a sentence, followed by one that starts with a
 * lower-case letter, is the same sentence. The same text reads the same whether it arrives as a
 * PDF, pasted from one, or typed.
 */
export function unwrapLines(lines: readonly string[]): string[] {
  // Each written line as its pieces, joined once at the end: joining as we go would copy a long
  // wrapped paragraph once per line.
  const pieces: string[][] = [];
  let previousEnd = '';
  for (const line of lines) {
    const trimmed = line.trim();
    const current = pieces[pieces.length - 1];
    if (current !== undefined && /^\p{Ll}/u.test(trimmed) && /[\p{L}\p{N},)]$/u.test(previousEnd)) {
      current.push(trimmed);
    } else {
      pieces.push([line]);
    }
    if (trimmed !== '') previousEnd = trimmed.slice(-1);
    else previousEnd = '';
  }
  return pieces.map((parts) => (parts.length === 1 ? (parts[0] ?? '') : parts.map((part, i) => (i === 0 ? part.trimEnd() : part)).join(' ')));
}

/**
 * `text.split(/\r?\n/)`: split at each line feed, then the carriage return before it dropped.
 * A string separator takes V8's fast split; the pattern ran a regular expression over every text.
 */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] ?? '';
    if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/**
 * Strips resume/profile labels and boilerplate so only the author's prose counts:
 * headings, "Label:" fields holding data, contact lines, e-mails, URLs, phone numbers,
 * date ranges, bullets, page numbers and lists of skills. Kept lines end with a full
 * stop, so each bullet reads as one sentence.
 */
export function cleanLabelledText(text: string): string {
  const kept: string[] = [];
  for (const line of unwrapLines(splitLines(text))) {
    const cleaned = cleanLine(line);
    if (cleaned !== '') kept.push(cleaned);
  }
  return kept.join('\n');
}
