/**
 * Scoring the C4 draft checker against the hand-labelled drafts (README.md beside this file):
 * reading the file, the parties each draft is written between, matching recommendations to
 * marked issues, and a keyword baseline to read the scores against.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reviewDraft } from '../../src/content/connect/messaging.ts';
import { scanMessage } from '../../src/content/connect/message-scan.ts';
import { pointToTraits } from '../../src/personality/circle.ts';
import type { TraitEstimate } from '../../src/personality/types.ts';
import { STYLE_AXES, type Party, type Style } from '../../src/content/party.ts';
import { loadContent } from '../../src/content/load-content.ts';

const shipped = loadContent();

/** The categories marked by hand, and so scored. */
export const CATEGORIES = ['pressure', 'hedge', 'filler', 'vague', 'wrong_name', 'greeting', 'missing_ask'] as const;
export type Category = (typeof CATEGORIES)[number];
export const SPLITS = ['tuning', 'heldout'] as const;
export type Split = (typeof SPLITS)[number];

export interface Span {
  category: string;
  start: number;
  end: number;
}

export interface LabelledDraft {
  id: string;
  split: Split;
  kind: string;
  recipient: { first_name: string; style: Style };
  sender: { style: Style };
  text: string;
  issues: (Span & { category: Category; quote: string })[];
}

export const DRAFTS_FILE = fileURLToPath(new URL('./drafts.jsonl', import.meta.url));
const STYLES: readonly string[] = ['D', 'I', 'S', 'C'];

/** Every draft, checked: a broken line (unknown category, a span that is not its quote) fails loudly. */
export function readDrafts(path = DRAFTS_FILE): LabelledDraft[] {
  const drafts: LabelledDraft[] = [];
  const ids = new Set<string>();
  for (const [index, line] of readFileSync(path, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const draft = JSON.parse(line) as LabelledDraft;
    const where = `${path}:${index + 1} (${draft.id})`;
    if (ids.has(draft.id)) throw new Error(`${where}: duplicate id`);
    ids.add(draft.id);
    if (!(SPLITS as readonly string[]).includes(draft.split)) throw new Error(`${where}: split must be tuning or heldout`);
    if (!STYLES.includes(draft.recipient.style) || !STYLES.includes(draft.sender.style)) throw new Error(`${where}: styles must be D, I, S or C`);
    for (const issue of draft.issues) {
      if (!(CATEGORIES as readonly string[]).includes(issue.category)) throw new Error(`${where}: unknown category ${issue.category}`);
      if (draft.text.slice(issue.start, issue.end) !== issue.quote) throw new Error(`${where}: span ${issue.start}-${issue.end} is not "${issue.quote}"`);
    }
    drafts.push(draft);
  }
  return drafts;
}

/** A person of this style, firmly placed (as a profile on a good deal of text, or a test, reads). */
export function partyOf(firstName: string | null, style: Style): Party {
  const angle = (STYLE_AXES[style] * Math.PI) / 180;
  const { extraversion, agreeableness } = pointToTraits({ x: 0.7 * Math.cos(angle), y: 0.7 * Math.sin(angle) });
  const estimate: TraitEstimate = {
    scores: { extraversion, agreeableness, conscientiousness: 0, openness: 0, neuroticism: 0 },
    confidence: { extraversion: 0.6, agreeableness: 0.6, conscientiousness: 0.6, openness: 0.6, neuroticism: 0.6 },
    source: 'prediction',
    modelVersion: 'drafts',
    wordCount: 200,
  };
  return { firstName, estimate };
}

/** The checker's kinds of pushing (booked for the reader, leverage, deliberation brushed off) are all pressure. */
const CATEGORY_OF: Readonly<Record<string, Category>> = { booked: 'pressure', leverage: 'pressure', brush_off: 'pressure' };

/** The checker's recommendations on a draft, as spans with the category of the check that made them. */
export function checkerSpans(draft: LabelledDraft): Span[] {
  const sender = partyOf(null, draft.sender.style);
  const recipient = partyOf(draft.recipient.first_name, draft.recipient.style);
  return reviewDraft(draft.text, sender, recipient, shipped.messaging).map(({ check, start, end }) => ({ category: CATEGORY_OF[check] ?? check, start, end }));
}

type AdviceEntries = Record<string, Partial<Record<Style, string | { text: string; tentative?: string }>>>;
type CheckoutRecommend = (text: string, sender: Party, recipient: Party) => { start: number; end: number; recommendation: string }[];

/**
 * A checkout's C4 checker and its advice templates (the code before this change has no check names
 * in its answers). Since the content moved into the context, a checkout's checker is given its
 * library, read by that checkout's own content loader (src/content/load-content.ts); an older one
 * read its advice itself and exported `loadMessagingAdvice`.
 */
export async function checkoutChecker(dir: string): Promise<{ recommend: CheckoutRecommend; advice: AdviceEntries }> {
  const messaging = (await import(resolve(dir, 'src/content/connect/messaging.ts'))) as {
    recommendMessage: (text: string, sender: Party, recipient: Party, library?: unknown) => ReturnType<CheckoutRecommend>;
    loadMessagingAdvice?: () => { advice: AdviceEntries };
  };
  if (messaging.loadMessagingAdvice !== undefined) {
    return { recommend: (text, sender, recipient) => messaging.recommendMessage(text, sender, recipient), advice: messaging.loadMessagingAdvice().advice };
  }
  const content = (await import(resolve(dir, 'src/content/load-content.ts'))) as { loadContent: () => { messaging: { advice: AdviceEntries } } };
  const library = content.loadContent().messaging;
  return { recommend: (text, sender, recipient) => messaging.recommendMessage(text, sender, recipient, library), advice: library.advice };
}

const escapeForPattern = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The checker of another checkout (`--before <dir>`, e.g. a worktree of main before this change):
 * each recommendation is given the check whose advice it is, by matching the advice templates
 * for the reader's style (the notes on the sender and on a tentative reader taken off).
 */
export async function checkoutSpans(dir: string): Promise<(draft: LabelledDraft) => Span[]> {
  const { recommend, advice } = await checkoutChecker(dir);
  const patterns = new Map<Style, { check: string; pattern: RegExp }[]>();
  for (const style of STYLES as readonly Style[]) {
    const list: { check: string; pattern: RegExp }[] = [];
    for (const [check, byStyle] of Object.entries(advice)) {
      const entry = byStyle[style];
      const texts = entry === undefined ? [] : typeof entry === 'string' ? [entry] : [entry.text, ...(entry.tentative === undefined ? [] : [entry.tentative])];
      for (const text of texts) {
        const body = text.split(/\{[a-z]+\}/).map(escapeForPattern).join('[\\s\\S]*?');
        list.push({ check, pattern: new RegExp(`^${body}$`) });
      }
    }
    patterns.set(style, list);
  }
  return (draft) => {
    const sender = partyOf(null, draft.sender.style);
    const recipient = partyOf(draft.recipient.first_name, draft.recipient.style);
    return recommend(draft.text, sender, recipient).map(({ start, end, recommendation }) => {
      const bare = recommendation.replace(/\s*<span class="rapport-(?:sender|tentative)">[\s\S]*?<\/span>/g, '');
      const check = patterns.get(draft.recipient.style)?.find((p) => p.pattern.test(bare))?.check ?? 'unknown';
      return { category: CATEGORY_OF[check] ?? check, start, end };
    });
  };
}

const BASELINE_WORDS: Partial<Record<Category, readonly string[]>> = {
  pressure: ['asap', 'urgent', 'urgently', 'immediately', 'must', 'today', 'tonight', 'now', 'deadline', 'expires', 'last chance', "don't miss", 'booked', 'price', 'hurry'],
  hedge: ['just', 'maybe', 'perhaps', 'possibly', 'probably', 'i think', 'i guess', 'i believe', 'kind of', 'sort of', 'hopefully', 'a bit', 'sorry'],
  filler: ['basically', 'honestly', 'actually', 'literally', 'really', 'very'],
  vague: ['amazing', 'huge', 'massive', 'incredible', 'best', 'great', 'leading', 'world-class', 'seamless', 'dramatically', 'significantly'],
};
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The trivial baseline: every listed word wherever it stands, a missing greeting when the text
 * does not start with Hi, Hello, Hey or Dear, a missing ask when it has no question mark, and no
 * check of the name.
 */
export function baselineSpans(draft: LabelledDraft): Span[] {
  const { text } = draft;
  const spans: Span[] = [];
  for (const [category, words] of Object.entries(BASELINE_WORDS)) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
    for (const m of text.replaceAll('’', "'").matchAll(pattern)) spans.push({ category, start: m.index, end: m.index + m[0].length });
  }
  const { sentences } = scanMessage(text);
  const first = sentences[0];
  const last = sentences[sentences.length - 1];
  if (first !== undefined && !/^(hi|hello|hey|dear)\b/i.test(text.trimStart())) spans.push({ category: 'greeting', start: first.start, end: first.end });
  if (last !== undefined && !text.includes('?')) spans.push({ category: 'missing_ask', start: last.start, end: last.end });
  return spans;
}

export interface Counts {
  issues: number;
  found: number;
  matched: number;
}

/** Same category and overlapping spans, each issue and each finding used at most once (in text order). */
export function matchSpans(issues: readonly Span[], found: readonly Span[]): { matchedIssues: Set<number>; matchedFound: Set<number> } {
  const matchedIssues = new Set<number>();
  const matchedFound = new Set<number>();
  found.forEach((f, j) => {
    const i = issues.findIndex((issue, k) => !matchedIssues.has(k) && issue.category === f.category && issue.start < f.end && f.start < issue.end);
    if (i >= 0) {
      matchedIssues.add(i);
      matchedFound.add(j);
    }
  });
  return { matchedIssues, matchedFound };
}

export type Scores = Record<Category | 'overall', Counts>;

/** Counts per category and overall; findings of checks that are not scored categories are left out. */
export function score(drafts: readonly LabelledDraft[], spansOf: (draft: LabelledDraft) => Span[]): Scores {
  const scores = Object.fromEntries([...CATEGORIES, 'overall'].map((c) => [c, { issues: 0, found: 0, matched: 0 }])) as Scores;
  for (const draft of drafts) {
    const found = spansOf(draft).filter((f) => (CATEGORIES as readonly string[]).includes(f.category));
    const { matchedIssues } = matchSpans(draft.issues, found);
    draft.issues.forEach((issue, i) => {
      for (const key of [issue.category, 'overall'] as const) {
        scores[key].issues += 1;
        if (matchedIssues.has(i)) scores[key].matched += 1;
      }
    });
    for (const f of found) {
      scores[f.category as Category].found += 1;
      scores.overall.found += 1;
    }
  }
  return scores;
}

/** Precision and recall (0–1); an empty denominator reads as 1 (nothing said wrongly, nothing missed). */
export function precision(c: Counts): number {
  return c.found === 0 ? 1 : c.matched / c.found;
}
export function recall(c: Counts): number {
  return c.issues === 0 ? 1 : c.matched / c.issues;
}

/** Recommendations whose span reaches over more than one sentence of the draft. */
export function spansOverASentence(draft: LabelledDraft, spans: readonly Span[]): Span[] {
  const { sentences } = scanMessage(draft.text);
  return spans.filter((span) => !sentences.some((s) => s.start <= span.start && span.end <= s.end));
}
