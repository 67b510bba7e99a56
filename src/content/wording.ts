/**
 * Step 6 of composing: how firmly the chosen phrases are said. The evidence decides it, never
 * which phrases are chosen (reading.ts): statements about the person (the overview, behaviour
 * and working-together sections, C2's one-line overview and block overviews) are said firmly
 * only as far as the evidence carries them, and otherwise as tendencies of the same direction.
 *
 * | evidence | firm statements per section |
 * |---|---|
 * | thin (confidence under 15) | none: every statement is a tendency |
 * | moderate (15–49) | the two best-fitting; the rest are tendencies |
 * | strong (50 and over: a personality test) | all |
 *
 * Advice on what the reader should do ("Keep the meeting short") is said as it is: the
 * profile's opening and the page say what the evidence is. A phrase with its own `tentative`
 * wording uses it; otherwise `hedge` words it: "Dana probably answers…", "Dana is most likely
 * direct…", or "The writing so far suggests that …" (every third sentence, and where no verb
 * follows the name). A sentence already worded as a tendency ("may", "tends to") is left as it is;
 * one that opens with the person, only where the hedge covers its first verb.
 */
import { HEDGE } from './hedge.ts';
import type { Phrase, Section } from './phrases.ts';
import type { EvidenceLevel } from './reading.ts';

/** The sections that describe the person rather than advise the reader. */
export const STATEMENT_SECTIONS: ReadonlySet<Section> = new Set<Section>(['overview', 'behavior', 'working_together']);

/** Firm statements a section keeps at each level of evidence (above). */
export const FIRM_STATEMENTS: Readonly<Record<EvidenceLevel, number>> = { thin: 0, moderate: 2, strong: Number.POSITIVE_INFINITY };

/** Verbs that open advice to the reader; such a sentence is not a statement about the person. */
const IMPERATIVES = new Set(
  'agree allow answer arrive ask avoid be begin bring build check choose close come describe do expect explain follow frame get give help include invite involve keep lead leave let make match meet mention name offer open pair pass plan protect push put raise reply respect say send share show skip slow start state tell treat use write'.split(' '),
);
/** Words after the name that are no verb to hedge: the sentence takes the prefix instead. */
const NOT_VERBS = new Set('often usually rarely generally typically always never seldom sometimes quickly quietly readily naturally also and or'.split(' '));

function lowerFirst(text: string): string {
  if (text.startsWith('{first}')) return text;
  const marker = text.startsWith('**') ? '**' : '';
  const rest = text.slice(marker.length);
  return marker + rest.charAt(0).toLowerCase() + rest.slice(1);
}

/** Verbs the hedge follows ("is probably direct"); it comes before any other ("probably answers"). */
const AUXILIARIES = new Set(['is', 'are', 'was', 'will', 'would', 'can', 'could']);

const PREFIXES = ['The writing so far suggests that ', 'From the writing so far, it seems that '];

/** Wording that already says a tendency, beside the hedges every loader knows (hedge.ts). */
const TENDENCY = /\binclined to\b/;

/** "{first} <verb> …" where it opens the sentence or follows an opening phrase and a comma. */
const SUBJECT = /(^|, )\{first\} ([a-z]+) /;

/**
 * True when the sentence already says its claim as a tendency. Where it opens with the person and
 * a verb ("{first} talks…", "Calm, {first} handles…"), the hedge must cover that verb ("{first}
 * may…", "{first} tends to…", "{first} is likely…"): "{first} talks ideas through out loud and may
 * change position" states its first claim as a fact, and is hedged like any other.
 */
function alreadyTendency(template: string): boolean {
  if (!HEDGE.test(template) && !TENDENCY.test(template)) return false;
  const match = SUBJECT.exec(template);
  if (match === null || NOT_VERBS.has(match[2] ?? '')) return true;
  const main = template.slice(match.index + (match[1] ?? '').length).split(' ').slice(1, 4).join(' ');
  return HEDGE.test(main) || TENDENCY.test(main);
}

/**
 * The sentence worded as a tendency; `variant` picks among equally good wordings so a list does
 * not repeat one. Unchanged where it is already a tendency or advice to the reader.
 */
export function hedge(template: string, variant = 0): string {
  if (alreadyTendency(template)) return template;
  const plain = template.replaceAll('**', '');
  const first = /^[A-Za-z]+/.exec(plain)?.[0] ?? '';
  if (IMPERATIVES.has(first.toLowerCase()) && first !== '' && !plain.startsWith('{first}')) {
    const expect = /^Expect \{first\} to ([a-z]+)/.exec(template);
    if (expect !== null) return template.replace(/^Expect \{first\} to /, '{first} may ');
    return template;
  }
  const match = SUBJECT.exec(template);
  const pick = variant % 3;
  // The hedge goes after the name, before the verb, where it covers every verb of a list
  // ("probably delegates freely, checks results … and moves on"); every third sentence that opens
  // with the name takes the prefix instead, so a section does not say "probably" five times (one
  // opening with a phrase before the name keeps the adverb: "suggests that methodical by habit, …"
  // would read badly).
  const fronted = match !== null && match.index > 0;
  if (match !== null && (pick !== 2 || fronted) && !NOT_VERBS.has(match[2] ?? '')) {
    const verb = match[2] ?? '';
    const at = match.index + (match[1] ?? '').length;
    const adverb = pick === 1 ? 'most likely' : 'probably';
    const auxiliary = AUXILIARIES.has(verb);
    const head = template.slice(0, at);
    const tail = template.slice(at + `{first} ${verb} `.length);
    return auxiliary ? `${head}{first} ${verb} ${adverb} ${tail}` : `${head}{first} ${adverb} ${verb} ${tail}`;
  }
  // A phrase fronted before the name takes a comma after the prefix: "suggests that, comfortable
  // with disagreement, {first} often…" (without it the phrase reads as the clause's subject).
  const prefix = PREFIXES[variant % PREFIXES.length] ?? '';
  const opening = template.indexOf(', {first} ');
  const frontedPhrase = opening > 0 && !template.slice(0, opening).includes('{first}');
  return frontedPhrase ? `${prefix.trimEnd()}, ${lowerFirst(template)}` : prefix + lowerFirst(template);
}

/**
 * The templates of a section as the evidence has them said: statements beyond the firm ones
 * the evidence allows are worded as tendencies.
 */
export function wordSection(section: Section, phrases: readonly Phrase[], evidence: EvidenceLevel): string[] {
  if (!STATEMENT_SECTIONS.has(section)) return phrases.map((p) => p.text);
  return wordStatements(phrases, evidence);
}

/** Statements, firm as far as the evidence allows (FIRM_STATEMENTS), the rest tendencies. */
export function wordStatements(phrases: readonly Phrase[], evidence: EvidenceLevel): string[] {
  const firm = FIRM_STATEMENTS[evidence];
  let hedged = 0;
  return phrases.map((phrase, index) => {
    // A role phrase says what such roles usually bring, and a trait phrase what a test measured:
    // neither rests on the writing, so neither is hedged by it.
    if (index < firm || phrase.roles !== undefined || phrase.traits !== undefined) return phrase.text;
    return phrase.tentative ?? hedge(phrase.text, hedged++);
  });
}
