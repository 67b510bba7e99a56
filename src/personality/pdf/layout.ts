/**
 * Turns pdf.js text items into plain text where a line on the page stays a line: resume
 * headings, bullets and dates must not run into each other, or the text model reads one
 * long sentence.
 */

/** The part of a pdf.js TextItem that layout needs. */
export interface PositionedText {
  str: string;
  /** [a, b, c, d, x, y]: x, y is where the text starts on the baseline. */
  transform: number[];
  width: number;
  height: number;
  hasEOL: boolean;
}

/**
 * pdf.js already marks most line ends (hasEOL); position is the fallback for generators
 * whose lines it joins. A baseline move of over half the text height starts a new line, and
 * a horizontal gap of over a quarter of it (columns, tab stops) becomes a space.
 */
export function layoutPage(items: Iterable<PositionedText>): string {
  let out = '';
  let prev: PositionedText | undefined;
  for (const item of items) {
    if (item.str === '' && !item.hasEOL) continue;
    if (prev !== undefined && !prev.hasEOL && item.str !== '') {
      const size = Math.max(item.height, prev.height, 1);
      const dy = Math.abs(coord(item, 5) - coord(prev, 5));
      const gap = coord(item, 4) - (coord(prev, 4) + prev.width);
      if (dy > size * 0.5) out += '\n';
      else if (gap > size * 0.25 && !/\s$/.test(out) && !/^\s/.test(item.str)) out += ' ';
    }
    out += item.str;
    if (item.hasEOL) out += '\n';
    prev = item;
  }
  return tidy(out);
}

/** Pages are separated by a blank line, the same break a paragraph gets. */
export function joinPages(pages: readonly string[]): string {
  return pages.filter((p) => p !== '').join('\n\n');
}

function coord(item: PositionedText, index: 4 | 5): number {
  const value = item.transform[index];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

// Control characters other than tab and newline come from broken font encodings; they
// carry no meaning and would leak into stored text.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

function tidy(text: string): string {
  return text
    .replace(CONTROL, '')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
