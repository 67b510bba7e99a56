import { describe, expect, it } from 'vitest';
import { isHeading, isList } from '../../../src/personality/text/labelled.ts';
import { countWords } from '../../../src/personality/text/matches.ts';
import { seededRandom } from '../../../training/random.ts';

/**
 * labelled.ts judges each line with single passes over its characters where it used to split
 * and re-scan it; these are the earlier forms, which the new ones must agree with on every line
 * (the output pin samples only 60 texts, few of them lists or headings).
 */
const LIST_SEPARATOR = /\s*[,;|·•/]\s*/;
const HEADINGS_SAMPLE = ['experience', 'work history', 'skills', 'summary', 'résumé', 'references available upon request'];

function isListBefore(line: string): boolean {
  if (!/[,;|·•/]/.test(line)) return false;
  const items = line.split(LIST_SEPARATOR).filter((item) => item.trim() !== '');
  if (items.length < 3) return false;
  return items.reduce((sum, item) => sum + countWords(item), 0) / items.length <= 3;
}

/** The earlier isHeading, for the lines built below (whose headings are all in HEADINGS_SAMPLE or in capitals). */
function isHeadingBefore(line: string, known: ReadonlySet<string>): boolean {
  const bare = line.replace(/[:：]\s*$/, '').trim();
  if (known.has(bare.toLowerCase())) return true;
  return countWords(bare) <= 5 && /[A-Z]/.test(bare) && bare === bare.toUpperCase() && !/[.!?…]["')\]]?$/.test(bare);
}

const PIECES = [
  'a', 'word', 'Python', 'SQL', 'WORK HISTORY', 'Skills', 'Summary', 'Résumé', 'İ', ':', '：', ' ', '  ', '\t', '\u00a0', '\u2003', ',', ';', '|', '·', '•', '/',
  '.', '!', '?', '…', '"', ')', ']', '-', '2019', 'and the', 'I led a team of eight', ...HEADINGS_SAMPLE,
];

function randomLines(count: number): string[] {
  const next = seededRandom(11);
  return Array.from({ length: count }, () => {
    let line = '';
    const pieces = 1 + Math.floor(next() * 16);
    for (let k = 0; k < pieces; k++) line += PIECES[Math.floor(next() * PIECES.length)] ?? '';
    return line;
  });
}

describe('labelled text, line by line', () => {
  const lines = [...randomLines(20_000), '', ' ', 'Python, SQL, Docker | Kubernetes', 'a, b', 'I wrote this, then that, and then more words here.', 'WORK HISTORY:', 'Skills :  '];

  it('finds a list of short items exactly where splitting the line did', () => {
    const differ = lines.filter((line) => isList(line) !== isListBefore(line));
    expect(differ).toEqual([]);
    // Both answers occur, so the comparison means something.
    expect(lines.some((line) => isList(line))).toBe(true);
    expect(lines.some((line) => !isList(line))).toBe(true);
  });

  it('finds a heading exactly where the full lower-casing and word count did', () => {
    const known = new Set(HEADINGS_SAMPLE);
    const differ = lines.filter((line) => isHeading(line) !== isHeadingBefore(line, known));
    expect(differ).toEqual([]);
    expect(lines.some((line) => isHeading(line))).toBe(true);
  });
});
