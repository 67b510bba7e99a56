/**
 * The result as a PDF the taker keeps: the same model as the page (result-report.ts), laid out
 * on A4 with pdf-lib. The fonts are the DejaVu Sans the repository ships (assets/fonts), embedded
 * as subsets, so any name in Latin, Greek or Cyrillic script prints as typed; the DISC map is
 * the PNG the map renderer draws.
 */
import fontkit from '@pdf-lib/fontkit';
import { readFile } from 'node:fs/promises';
import { PDFDocument, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import { RESULT_LISTS } from '../content/taker/result.ts';
import { ABOUT_TEST, barValue, headline, LIST_TITLES, letterLines, standingLine, takenLine, type ResultReport } from './result-report.ts';

const FONTS = new URL('../../assets/fonts/', import.meta.url);
const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const WIDTH = A4.width - 2 * MARGIN;
const INK = rgb(0.12, 0.16, 0.2);
const GREY = rgb(0.24, 0.3, 0.35);
const TRACK = rgb(0.89, 0.91, 0.92);
const BAR_COLOURS: Record<string, RGB> = {
  d: rgb(0.76, 0.22, 0.18),
  i: rgb(0.76, 0.49, 0.05),
  s: rgb(0.18, 0.52, 0.35),
  c: rgb(0.17, 0.42, 0.69),
};

/** A cursor down the pages: text is wrapped to the width and a new page starts when one is full. */
class Layout {
  private page: PDFPage;
  private y = A4.height - MARGIN;
  readonly pages: PDFPage[] = [];

  constructor(private readonly doc: PDFDocument, readonly regular: PDFFont, readonly bold: PDFFont) {
    this.page = this.newPage();
  }

  private newPage(): PDFPage {
    const page = this.doc.addPage([A4.width, A4.height]);
    this.pages.push(page);
    this.y = A4.height - MARGIN;
    return page;
  }

  /** Starts a new page unless `height` points fit on this one. */
  need(height: number): void {
    if (this.y - height < MARGIN + 20) this.page = this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  private lines(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter((w) => w !== '')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (line !== '' && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    if (line !== '') lines.push(line);
    return lines;
  }

  text(text: string, options: { size?: number; bold?: boolean; colour?: RGB; indent?: number; bullet?: boolean; after?: number } = {}): void {
    const size = options.size ?? 11;
    const font = options.bold ? this.bold : this.regular;
    const indent = options.indent ?? 0;
    const leading = size * 1.35;
    const lines = this.lines(text, font, size, WIDTH - indent);
    lines.forEach((line, i) => {
      this.need(leading);
      this.y -= leading;
      if (options.bullet && i === 0) this.page.drawText('•', { x: MARGIN + indent - 11, y: this.y, size, font, color: options.colour ?? INK });
      this.page.drawText(line, { x: MARGIN + indent, y: this.y, size, font, color: options.colour ?? INK });
    });
    this.y -= options.after ?? 4;
  }

  bar(value: number, colour: RGB): void {
    this.need(12);
    this.y -= 9;
    this.page.drawRectangle({ x: MARGIN, y: this.y, width: WIDTH, height: 7, color: TRACK });
    const filled = (WIDTH * Math.min(100, Math.max(0, value))) / 100;
    if (filled > 0) this.page.drawRectangle({ x: MARGIN, y: this.y, width: filled, height: 7, color: colour });
    this.y -= 4;
  }

  /** A label and its value on one line, the value at the right. */
  labelled(label: string, value: string): void {
    const size = 11;
    this.need(size * 1.4);
    this.y -= size * 1.4;
    this.page.drawText(label, { x: MARGIN, y: this.y, size, font: this.bold, color: INK });
    const width = this.bold.widthOfTextAtSize(value, size);
    this.page.drawText(value, { x: MARGIN + WIDTH - width, y: this.y, size, font: this.bold, color: INK });
  }

  async image(png: Uint8Array, size: number): Promise<void> {
    const image = await this.doc.embedPng(png);
    this.need(size + 6);
    this.y -= size;
    this.page.drawImage(image, { x: MARGIN + (WIDTH - size) / 2, y: this.y, width: size, height: size });
    this.y -= 6;
  }

  footers(): void {
    this.pages.forEach((page, i) => {
      const label = `Rapport personality test result · page ${i + 1} of ${this.pages.length}`;
      page.drawText(label, { x: MARGIN, y: MARGIN - 24, size: 8.5, font: this.regular, color: GREY });
    });
  }
}

/** The PDF's bytes. `mapPng`: the DISC map to print, or null to leave it out. */
export async function drawResultPdf(report: ResultReport, mapPng: Uint8Array | null): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const [regularBytes, boldBytes] = await Promise.all([readFile(new URL('DejaVuSans.ttf', FONTS)), readFile(new URL('DejaVuSans-Bold.ttf', FONTS))]);
  const layout = new Layout(doc, await doc.embedFont(regularBytes, { subset: true }), await doc.embedFont(boldBytes, { subset: true }));
  const r = report.result;
  doc.setTitle(`${headline(report)}: ${r.archetype} (${r.discType})`);
  doc.setAuthor('Rapport');
  doc.setSubject('Personality test result');
  doc.setCreator('Rapport');
  doc.setCreationDate(report.takenAt);
  doc.setModificationDate(report.takenAt);

  layout.text('RAPPORT · YOUR PERSONALITY TEST RESULT', { size: 9, bold: true, colour: GREY, after: 8 });
  layout.text(`${headline(report)}: ${r.archetype} (${r.discType})`, { size: 20, bold: true, after: 6 });
  layout.text(r.gist, { size: 13, after: 10 });
  layout.text(`What ${r.discType} and ${r.archetype} mean`, { size: 13, bold: true });
  for (const sentence of r.explanation) layout.text(sentence);
  for (const line of letterLines(r)) layout.text(line, { bullet: true, indent: 14, after: 1 });
  layout.gap(4);
  layout.text(takenLine(report), { size: 9.5, colour: GREY, after: 12 });

  if (mapPng !== null) await layout.image(mapPng, 190);
  layout.text('Your style at a glance', { size: 13, bold: true, after: 2 });
  layout.text('The first four bars split your place on the DISC map among the four styles (together 100 %); Thoroughness and Openness come from the test\'s own questions about how you work.', { size: 9.5, colour: GREY, after: 6 });
  for (const bar of r.bars) {
    layout.need(52);
    layout.labelled(bar.name, barValue(bar));
    layout.bar(bar.value, BAR_COLOURS[bar.scale] ?? rgb(0.42, 0.27, 0.76));
    layout.text(bar.means, { size: 9.5, colour: GREY, after: 0 });
    const standing = standingLine(bar, report.standing);
    if (standing) layout.text(standing, { size: 9.5, bold: true, colour: GREY, after: 0 });
    layout.gap(8);
  }

  for (const list of RESULT_LISTS) {
    layout.gap(6);
    layout.need(60);
    layout.text(LIST_TITLES[list], { size: 13, bold: true, after: 2 });
    for (const sentence of r.lists[list]) layout.text(sentence, { bullet: true, indent: 14, after: 2 });
  }
  layout.gap(10);
  layout.text('About this result', { size: 11, bold: true, after: 1 });
  layout.text(ABOUT_TEST, { size: 9.5, colour: GREY });
  layout.footers();
  return doc.save();
}
