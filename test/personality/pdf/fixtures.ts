/**
 * PDF fixtures built in memory, so no binary files live in the repo. Well-formed documents
 * come from pdf-lib; hostile ones (encryption, bombs) are written as raw PDF syntax because
 * pdf-lib cannot produce them.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);

/** Lines of a small two-page resume; `heading` lines are set in bold, larger type. */
export const RESUME_PAGES: ReadonlyArray<ReadonlyArray<{ text: string; heading?: boolean }>> = [
  [
    { text: 'Jane Doe', heading: true },
    { text: 'Senior Software Engineer, Lisbon' },
    { text: 'Experience', heading: true },
    { text: '• Led a team of five engineers to ship the billing platform on time.' },
    { text: '• I enjoy mentoring new colleagues and writing clear documentation.' },
    { text: 'I like to plan carefully, and I always double-check the details before a release.' },
  ],
  [
    { text: 'Skills', heading: true },
    { text: 'TypeScript, Postgres, distributed systems, technical writing' },
    { text: 'Bio', heading: true },
    { text: 'I love hiking with friends and organising community events on weekends.' },
  ],
];

/** The text a correct extraction of the resume yields, one line per drawn line. */
export const RESUME_LINES: string[] = RESUME_PAGES.flat().map((l) => l.text);

export async function resumePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of RESUME_PAGES) {
    const page = doc.addPage([612, 792]);
    let y = 740;
    for (const line of lines) {
      // Headings get extra space above them, as a real resume layout would.
      if (line.heading && y < 740) y -= 10;
      page.drawText(line.text, { x: 50, y, size: line.heading ? 16 : 11, font: line.heading ? bold : regular });
      y -= line.heading ? 24 : 16;
    }
  }
  return doc.save();
}

/**
 * A document with `count` pages that all share one content stream. Written raw because
 * pdf-lib takes seconds for thousands of pages.
 */
export function manyPagesPdf(count: number): Uint8Array {
  const firstPage = 5;
  const kids = Array.from({ length: count }, (_, i) => `${firstPage + i} 0 R`).join(' ');
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>';
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ['', latin1('BT /F1 12 Tf 20 100 Td (A page of many) Tj ET')],
    ...Array.from({ length: count }, () => page),
  ]);
}

/**
 * Serialises numbered objects (1..n) into a PDF with a classic xref table. Each object body
 * is either PDF syntax or a [dictionary, stream data] pair whose /Length is filled in here.
 */
export function rawPdf(objects: ReadonlyArray<string | [string, Uint8Array]>, trailerExtra = ''): Uint8Array {
  const parts: Uint8Array[] = [latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
  let offset = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  const push = (chunk: Uint8Array): void => {
    parts.push(chunk);
    offset += chunk.length;
  };
  objects.forEach((body, i) => {
    offsets.push(offset);
    if (typeof body === 'string') {
      push(latin1(`${i + 1} 0 obj\n${body}\nendobj\n`));
    } else {
      const [dict, data] = body;
      push(latin1(`${i + 1} 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`));
      push(data);
      push(latin1('\nendstream\nendobj\n'));
    }
  });
  const xrefAt = offset;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    latin1(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${rows}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
    ),
  );
  // A plain Uint8Array, not a Buffer: pdf.js refuses Buffers.
  return new Uint8Array(Buffer.concat(parts));
}

const ONE_PAGE = (contentRef: string): string[] => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents ${contentRef} >>`,
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
];

/**
 * A document protected by the standard security handler whose user password is not empty:
 * /U is not the value the empty password produces, so pdf.js asks for a password.
 */
export function encryptedPdf(): Uint8Array {
  const hex32 = (byte: string): string => `<${byte.repeat(32)}>`;
  return rawPdf(
    [
      ...ONE_PAGE('5 0 R'),
      ['', latin1('BT /F1 12 Tf 72 700 Td (secret) Tj ET')],
      `<< /Filter /Standard /V 1 /R 2 /O ${hex32('ab')} /U ${hex32('cd')} /P -44 >>`,
    ],
    '/Encrypt 6 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]',
  );
}

/**
 * A one-page document whose content stream inflates to `inflatedMb` MB of `fill` bytes
 * (a "zip bomb" stream): a few hundred KB on disk, hundreds of MB once decoded.
 */
export function streamBombPdf(inflatedMb: number, fill = 0): Uint8Array {
  return rawPdf([...ONE_PAGE('5 0 R'), ['/Filter /FlateDecode', deflatedRun(inflatedMb * MB, fill)]]);
}

const MB = 1024 * 1024;

/**
 * A zlib stream that inflates to `bytes` bytes of `fill`, as deflateSync at level 1 would
 * make it, without compressing them all: one megabyte is compressed once, ended with a full
 * flush (which resets the compressor, so the same input gives the same bytes again), and
 * repeated. Compressing 400 MB took ~1.5 s of CPU in each test that built such a bomb.
 */
function deflatedRun(bytes: number, fill: number): Buffer {
  const chunk = (size: number) => deflateRawSync(Buffer.alloc(size, fill), { level: 1, finishFlush: constants.Z_FULL_FLUSH });
  const whole = Math.floor(bytes / MB);
  const oneMb = chunk(MB);
  const body = [...Array.from({ length: whole }, () => oneMb), chunk(bytes - whole * MB)];
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([Buffer.from([0x78, 0x01]), ...body, finalBlock, adler32OfRun(bytes, fill)]);
}

/** Adler-32 (RFC 1950) of `count` bytes of `fill`: a = 1 + fill·n, b = n + fill·n(n+1)/2, both mod 65521. */
function adler32OfRun(count: number, fill: number): Buffer {
  const n = BigInt(count);
  const f = BigInt(fill);
  const a = (1n + f * n) % 65521n;
  const b = (n + (f * n * (n + 1n)) / 2n) % 65521n;
  const out = Buffer.alloc(4);
  out.writeUInt32BE(Number((b << 16n) | a));
  return out;
}

/**
 * A one-page document drawing `count` short words, each placed on its own spot of a grid so
 * that pdf.js keeps them as separate text items: a few hundred KB that need far more heap.
 */
export function manyTextItemsPdf(count: number): Uint8Array {
  const ops: string[] = ['BT /F1 10 Tf'];
  for (let i = 0; i < count; i++) {
    ops.push(`1 0 0 1 ${50 + (i % 50) * 10} ${50 + (Math.floor(i / 50) % 70) * 10} Tm (w${i % 10}) Tj`);
  }
  ops.push('ET');
  return rawPdf([...ONE_PAGE('5 0 R'), ['/Filter /FlateDecode', deflateSync(Buffer.from(ops.join('\n'), 'latin1'))]]);
}
