import { unwrapLines } from '../../../../src/personality/text/labelled.ts';
/** The regular-expression cleanLabelledText as it was before the linear-time rewrite: the reference its results must equal. */
/**
 * Reads labelled text (a resume, a profile) the way a person would: headings, field
 * labels, contact details, dates and lists of skills are the form's words, not the
 * author's, so only the sentences the person wrote are kept. Works line by line; each
 * line meets a handful of regular expressions, never one per word.
 */

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
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const URL = /\b(?:https?:\/\/|www\.)\S+|\b[\w-]+\.(?:com|org|net|io|dev|me|co|ai)(?:\/\S*)?\b/gi;
const PHONE = /(?:\+?\d[\d\s().-]{6,}\d)/g;
const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DATE = `(?:${MONTH}\\s+\\d{4}|\\d{1,2}[/.]\\d{4}|\\d{4}[/.-]\\d{1,2}|\\d{4})`;
const DATE_RANGE = new RegExp(`${DATE}\\s*(?:[-–—]|to|until)\\s*(?:${DATE}|present|current|now|today)|\\b${MONTH}\\s+\\d{4}\\b`, 'gi');
const PAGE_MARKER = /^(?:page\s*)?\d{1,3}(?:\s*(?:of|\/)\s*\d{1,3})?$|^-\s*\d{1,3}\s*-$/i;
const SENTENCE_END = /[.!?…]["')\]]?$/;
/** A list of short items: "Python, SQL, Docker | Kubernetes". */
const LIST_SEPARATOR = /\s*[,;|·•/]\s*/;

function wordsIn(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

function isList(line: string): boolean {
  const items = line.split(LIST_SEPARATOR).filter((item) => item.trim() !== '');
  if (items.length < 3) return false;
  return items.reduce((sum, item) => sum + wordsIn(item), 0) / items.length <= 3;
}

/** "Senior Product Manager, Acme Corp": names of roles, places and degrees are title-cased. */
function isTitleCased(line: string): boolean {
  const words = line.split(/[\s,]+/).filter((word) => /^[A-Za-z]/.test(word));
  if (words.length === 0) return false;
  const capitalised = words.filter((word) => /^[A-Z]/.test(word)).length;
  return capitalised / words.length >= 0.8;
}

function isHeading(line: string): boolean {
  const bare = line.replace(/[:：]\s*$/, '').trim();
  if (HEADINGS.has(bare.toLowerCase())) return true;
  // Short lines in capitals ("WORK HISTORY") are headings whatever they say.
  return wordsIn(bare) <= 5 && /[A-Z]/.test(bare) && bare === bare.toUpperCase() && !SENTENCE_END.test(bare);
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

  line = line.replace(EMAIL, ' ').replace(URL, ' ').replace(DATE_RANGE, ' ').replace(PHONE, ' ');
  line = line.replace(/\s*[|]\s*/g, ', ').replace(/\s+/g, ' ').replace(/^[\s,;:–—-]+|[\s,;:–—-]+$/g, '');
  if (line === '' || isList(line)) return '';
  // A fragment without a verb-length body or an ending ("Senior Engineer, Acme") is a
  // title or a place, not something the person said.
  if (!SENTENCE_END.test(line) && (wordsIn(line) < 5 || isTitleCased(line))) return '';
  return SENTENCE_END.test(line) ? line : `${line}.`;
}

/**
 * Strips resume/profile labels and boilerplate so only the author's prose counts:
 * headings, "Label:" fields holding data, contact lines, e-mails, URLs, phone numbers,
 * date ranges, bullets, page numbers and lists of skills. Kept lines end with a full
 * stop, so each bullet reads as one sentence.
 */
export function cleanLabelledText(text: string): string {
  const kept: string[] = [];
  // Joining wrapped lines is a step before the line cleaner these patterns describe; it is shared.
  for (const line of unwrapLines(text.split(/\r?\n/))) {
    const cleaned = cleanLine(line);
    if (cleaned !== '') kept.push(cleaned);
  }
  return kept.join('\n');
}
