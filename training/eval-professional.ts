import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pointToType } from '../src/personality/circle.ts';
import { extractPdfText } from '../src/personality/pdf/extract-core.ts';
import { DEFAULT_PDF_LIMITS, HARD_PAGE_CAP_FACTOR } from '../src/personality/pdf/types.ts';
import { analyzeText, type TextModel } from '../src/personality/text/index.ts';
import { traitsToPoint } from '../src/personality/circle.ts';
import { dominantStyle } from './norms.ts';
import { quadrantOf, type ProfessionalText } from './professional.ts';
import { withoutSelfDescriptions } from './self-descriptions.ts';

/**
 * How the shipped reader (analyzeText, as the service calls it) reads professional writing whose
 * style careful readers agree on: the held-out quarter of the professional corpus, the texts a
 * new hand wrote after the model was frozen, and the same people across kinds of writing and
 * across text and PDF. Agreement is on the dominant style (norms.ts dominantStyle): the quarter
 * of the circle the reading lands in, which for a blend label (Dc, Si, …) is its first letter's.
 * Face validity: whether the reading matches what the writing shows, not a questionnaire.
 */

export type Style = 'D' | 'I' | 'S' | 'C';
const OPPOSITE: Record<Style, Style> = { D: 'S', S: 'D', I: 'C', C: 'I' };

export interface Reading {
  text: ProfessionalText;
  style: Style | null;
  /** The first letter of the DISC type, as the first measurement read it. */
  typeLetter: Style | null;
  type: string | null;
}

export function readAll(model: TextModel, texts: readonly ProfessionalText[], edit: (text: string) => string = (text) => text, typed = false): Reading[] {
  return texts.map((text) => {
    const result = analyzeText(edit(text.text), { model, textType: typed ? text.textType : undefined });
    if (!result.ok) return { text, style: null, typeLetter: null, type: null };
    const point = traitsToPoint(result.estimate.scores);
    const type = pointToType(point);
    return { text, style: dominantStyle(point), typeLetter: quadrantOf(type), type };
  });
}

export interface Agreement {
  texts: number;
  agreement: number;
  firstLetter: number;
  opposite: number;
  unread: number;
  byGenre: Record<string, number>;
  byStyle: Record<string, number>;
  byLabel: Record<string, number>;
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}

function groupShare(readings: readonly Reading[], key: (reading: Reading) => string): Record<string, number> {
  const groups = new Map<string, [number, number]>();
  for (const reading of readings) {
    const [right, all] = groups.get(key(reading)) ?? [0, 0];
    groups.set(key(reading), [right + (reading.style === quadrantOf(reading.text.label) ? 1 : 0), all + 1]);
  }
  return Object.fromEntries([...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, [right, all]]) => [name, share(right, all)]));
}

export function agreementOf(readings: readonly Reading[]): Agreement {
  const wanted = (reading: Reading): Style => quadrantOf(reading.text.label);
  return {
    texts: readings.length,
    agreement: share(readings.filter((r) => r.style === wanted(r)).length, readings.length),
    firstLetter: share(readings.filter((r) => r.typeLetter === wanted(r)).length, readings.length),
    opposite: share(readings.filter((r) => r.style === OPPOSITE[wanted(r)]).length, readings.length),
    unread: readings.filter((r) => r.style === null).length,
    byGenre: groupShare(readings, (r) => r.text.textType),
    byStyle: groupShare(readings, (r) => quadrantOf(r.text.label)),
    byLabel: groupShare(readings, (r) => r.text.label),
  };
}

/** The majority-class baseline: always answering the most frequent style of the set. */
export function majorityStyle(texts: readonly ProfessionalText[]): number {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(quadrantOf(text.label), (counts.get(quadrantOf(text.label)) ?? 0) + 1);
  return share(Math.max(0, ...counts.values()), texts.length);
}

/** People written twice (two kinds of writing): the share whose two texts land in the same style. */
export function samePerson(readings: readonly Reading[]): { pairs: number; same: number } {
  const byPersona = new Map<string, Reading[]>();
  for (const reading of readings) byPersona.set(reading.text.persona, [...(byPersona.get(reading.text.persona) ?? []), reading]);
  const pairs = [...byPersona.values()].filter((group) => group.length === 2);
  return { pairs: pairs.length, same: share(pairs.filter(([a, b]) => a?.style !== null && a?.style === b?.style).length, pairs.length) };
}

export { withoutSelfDescriptions };

/** Characters the PDF's standard font cannot draw, folded to their base letter (or dropped). */
function drawable(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u20ac\u00a3\n]/g, '');
}

/** A resume as a one-column PDF: the first line as a heading, lines wrapped at the page's width. */
export async function resumePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let page = doc.addPage([612, 792]);
  let y = 740;
  const draw = (line: string, size: number, useBold: boolean): void => {
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 740;
    }
    page.drawText(line, { x: 54, y, size, font: useBold ? bold : font });
    y -= size + 4;
  };
  drawable(text)
    .split('\n')
    .forEach((paragraph, index) => {
      if (paragraph.trim() === '') {
        y -= 6;
        return;
      }
      const heading = index === 0 || (paragraph === paragraph.toUpperCase() && paragraph.length < 40);
      const size = index === 0 ? 16 : 10.5;
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = line === '' ? word : `${line} ${word}`;
        if ((heading ? bold : font).widthOfTextAtSize(candidate, size) > 500) {
          draw(line, size, heading);
          line = word;
        } else line = candidate;
      }
      if (line !== '') draw(line, size, heading);
    });
  return doc.save();
}

/** Each resume read as text and as the PDF of it (extracted as the service extracts uploads): the share of the same DISC type. */
export async function textAndPdf(model: TextModel, resumes: readonly ProfessionalText[]): Promise<{ resumes: number; sameType: number; sameStyle: number }> {
  const options = {
    maxPages: DEFAULT_PDF_LIMITS.maxPages,
    hardPageCap: DEFAULT_PDF_LIMITS.maxPages * HARD_PAGE_CAP_FACTOR,
    maxTextChars: DEFAULT_PDF_LIMITS.maxTextChars,
    maxDecodedBytes: (DEFAULT_PDF_LIMITS.maxWorkerMemoryMb * 1024 * 1024) / 2,
  };
  let sameType = 0;
  let sameStyle = 0;
  for (const resume of resumes) {
    const asText = analyzeText(resume.text, { model });
    const extracted = await extractPdfText(await resumePdf(resume.text), options);
    const asPdf = extracted.result.ok ? analyzeText(extracted.result.text, { model }) : null;
    if (!asText.ok || asPdf === null || !asPdf.ok) continue;
    const p = traitsToPoint(asText.estimate.scores);
    const q = traitsToPoint(asPdf.estimate.scores);
    if (pointToType(p) === pointToType(q)) sameType++;
    if (dominantStyle(p) === dominantStyle(q)) sameStyle++;
  }
  return { resumes: resumes.length, sameType: share(sameType, resumes.length), sameStyle: share(sameStyle, resumes.length) };
}
