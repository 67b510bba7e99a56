import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedSizeExceeds } from '../../../src/personality/pdf/stream-guard.ts';
import { rawPdf, resumePdf, streamBombPdf } from './fixtures.ts';

const MB = 1024 * 1024;
const zeros = (mb: number): Buffer => Buffer.alloc(mb * MB);
const withStream = (dict: string, data: Uint8Array): Uint8Array => rawPdf(['<< /Type /Catalog >>', [dict, data]]);

describe('decodedSizeExceeds', () => {
  it('lets an ordinary document through', async () => {
    expect(await decodedSizeExceeds(await resumePdf(), 1 * MB)).toBe(false);
  });

  it('compares the total of all streams with the budget', async () => {
    const bomb = streamBombPdf(20);
    expect(await decodedSizeExceeds(bomb, 19 * MB)).toBe(true);
    expect(await decodedSizeExceeds(bomb, 21 * MB)).toBe(false);
  });

  it('looks through a chain of Flate filters', async () => {
    const twice = deflateSync(deflateSync(zeros(64), { level: 1 }), { level: 9 });
    expect(twice.length).toBeLessThan(64 * 1024);
    const pdf = withStream('/Filter [/FlateDecode /FlateDecode]', twice);
    expect(await decodedSizeExceeds(pdf, 32 * MB)).toBe(true);
  });

  it('counts what inflates before a corrupt or missing end', async () => {
    const whole = deflateSync(zeros(64), { level: 1 });
    const cut = Buffer.concat([whole.subarray(0, Math.floor(whole.length * 0.9)), Buffer.from('garbage!')]);
    expect(await decodedSizeExceeds(withStream('/Filter /FlateDecode', cut), 32 * MB)).toBe(true);
  });
});
