/**
 * What the result page and its PDF both say: the composed result (content/taker), who it is for
 * and where it stands among this service's takers. The two renderings read the same model, so
 * the PDF a taker keeps says what the page said.
 */
import type { ResultBar, TakerResult } from '../content/taker/compose-result.ts';
import type { Standing } from '../takers/standing.ts';

export interface ResultReport {
  /** The name the page speaks to (cleaned); null when the taker gave none. */
  firstName: string | null;
  result: TakerResult;
  takenAt: Date;
  /** The address the result is filed under; null on the private link's view (readerView). */
  email: string | null;
  /** Who sent the test (the user's organisation); null when not set, and on the private link's view. */
  organisationName: string | null;
  standing: Standing | null;
}

export const LIST_TITLES = {
  strengths: 'Your strengths',
  blindSpots: 'Your blind spots',
  communication: 'How you tend to communicate',
  work: 'How you tend to work',
  drains: 'What drains you',
} as const;

const ROLE_WORDS = { main: 'your main style', lean: 'the style you lean toward', equal: 'one of your two equal styles' } as const;

/** "S: Steadiness, your main style" for each letter of the type. */
export function letterLines(result: TakerResult): string[] {
  return result.letters.map((l) => `${l.letter}: ${l.style}, ${ROLE_WORDS[l.role]}`);
}

/** The bar's value as words: "42 %" for a share or the intensity, the level for a measured trait. */
export function barValue(bar: ResultBar): string {
  return bar.level === null ? `${bar.value} %` : bar.level;
}

/** Where this result stands on the bar's scale among the others, in a sentence; null without enough takers. */
export function standingLine(bar: ResultBar, standing: Standing | null): string | null {
  if (standing === null) return null;
  const share = standing.higherThan[bar.scale];
  const noun = bar.scale === 'intensity' ? 'more marked than' : 'higher than';
  return `${noun[0]?.toUpperCase() ?? ''}${noun.slice(1)} ${share} % of the ${standing.others.toLocaleString('en-US')} other people who took this test here.`;
}

/**
 * The report as the private link shows it to whoever the taker gave it: the result, without the
 * address it is filed under or who sent the test (a hiring company, say), which the taker may
 * not mean to pass on with it.
 */
export function readerView(report: ResultReport): ResultReport {
  return { ...report, email: null, organisationName: null };
}

/** Where and for whom the result was taken, in a line: "Taken 12 March 2026 · filed under … · sent by …". */
export function takenLine(report: ResultReport): string {
  return [`Taken ${longDate(report.takenAt)}`, ...(report.email ? [`filed under ${report.email}`] : []), ...(report.organisationName ? [`sent by ${report.organisationName}`] : [])].join(' · ');
}

/** The date as a taker reads it: 12 March 2026. */
export function longDate(date: Date): string {
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The heading: "Kim, your personality style" or "Your personality style". */
export function headline(report: ResultReport): string {
  return report.firstName ? `${report.firstName}, your personality style` : 'Your personality style';
}

export const ABOUT_TEST =
  'From your answers to 48 statements of the International Personality Item Pool (public domain): 32 place you on the circle of how people deal with each other, which DISC divides into four styles, and 16 measure thoroughness and openness. A style says how you tend to deal with people, not how good you are at anything: read it as a starting point for a conversation, not a label.';
