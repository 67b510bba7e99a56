import { describe, expect, it } from 'vitest';
import { layoutPage, type PositionedText } from '../../../src/personality/pdf/layout.ts';
import { sniffPdf } from '../../../src/personality/pdf/index.ts';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

describe('sniffPdf', () => {
  it('finds %PDF- at the start or after junk within the first 1024 bytes', () => {
    expect(sniffPdf(bytes('%PDF-1.7\n'))).toBe(true);
    expect(sniffPdf(bytes(`${' '.repeat(1000)}%PDF-1.4`))).toBe(true);
  });

  it('refuses anything else', () => {
    expect(sniffPdf(new Uint8Array(0))).toBe(false);
    expect(sniffPdf(bytes('%PDF'))).toBe(false);
    expect(sniffPdf(bytes(`${' '.repeat(1020)}%PDF-1.4`))).toBe(false);
    expect(sniffPdf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(false);
    expect(sniffPdf(bytes('PK\u0003\u0004 %PDF in a zip name'))).toBe(false);
  });
});

const item = (str: string, x: number, y: number, hasEOL = false, size = 10): PositionedText => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width: str.length * size * 0.5,
  height: size,
  hasEOL,
});

describe('layoutPage', () => {
  it('ends lines where pdf.js marks them', () => {
    expect(layoutPage([item('Experience', 50, 700, true), item('• Led a team', 50, 684)])).toBe('Experience\n• Led a team');
  });

  it('starts a new line when the baseline moves, even without a mark', () => {
    expect(layoutPage([item('Skills', 50, 700), item('TypeScript', 50, 684)])).toBe('Skills\nTypeScript');
  });

  it('joins pieces of one line, adding a space only across a visible gap', () => {
    // "Jane" ends at x = 70; "Doe" 15 pt later is a new word, "Doe" at 70 a continuation.
    expect(layoutPage([item('Jane', 50, 700), item('Doe', 85, 700)])).toBe('Jane Doe');
    expect(layoutPage([item('Ja', 50, 700), item('ne', 60, 700)])).toBe('Jane');
    expect(layoutPage([item('Jane ', 50, 700), item('Doe', 90, 700)])).toBe('Jane Doe');
  });

  it('drops control characters and squeezes blank runs', () => {
    expect(layoutPage([item('a\u0000b\u0007  c', 50, 700, true), item('', 50, 690, true), item('', 50, 680, true), item('d', 50, 670)])).toBe(
      'ab c\n\nd',
    );
  });
});
