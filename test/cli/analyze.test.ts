import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../fixtures/pdf.ts';
import { encryptedPdf, manyPagesPdf } from '../personality/pdf/fixtures.ts';
import { OUTGOING_TEXT, RESERVED_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { runCliInProcess } from '../helpers/in-process-cli.ts';
import { runCli } from '../helpers/process.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-analyze-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The analysis needs no database: point the data dir somewhere empty to prove it.
const env = () => ({ RAPPORT_DATA_DIR: path.join(dir, 'no-db') });

const NO_PERSONALITY = { data: null, message: 'Content did not yield a personality' };

/** Runs `analyze --jsonl` over these lines and parses every result line. */
async function batch(name: string, content: string) {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  const result = await runCliInProcess(['analyze', '--jsonl', file], env());
  const lines = result.stdout.trim() ? result.stdout.trim().split('\n').map((l) => JSON.parse(l)) : [];
  return { ...result, file, lines };
}

describe('rapport analyze', () => {
  // A process of its own, as an operator runs it; the other tests run the same command in this one.
  it('analyses a text file and prints the personality, traits, evidence and advice', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, OUTGOING_TEXT);
    const result = await runCli(['analyze', file], env());
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.personality.disc_type).toMatch(/^[DISC][DISCdisc]?$/);
    expect(out.personality.disc_percentages.d + out.personality.disc_percentages.i + out.personality.disc_percentages.s + out.personality.disc_percentages.c).toBe(100);
    expect(Math.abs(out.traits.extraversion)).toBeLessThanOrEqual(1);
    expect(out.content.behavior.length).toBeGreaterThanOrEqual(3);
    expect(out.model_version).toMatch(/^rapport-text-/);
  });

  it('analyses a PDF the same way as its text', async () => {
    const file = path.join(dir, 'resume.pdf');
    writeFileSync(file, await textPdf(`${RESUME_TEXT}\n${OUTGOING_TEXT}`));
    const result = await runCliInProcess(['analyze', file], env());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).words).toBeGreaterThan(100);
  });

  it('reports the no-personality answer for too little text, with the reason code HTTP gives', async () => {
    const file = path.join(dir, 'short.txt');
    writeFileSync(file, 'Hello world.');
    const result = await runCliInProcess(['analyze', file], env());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ file, ...NO_PERSONALITY, reason: 'text_too_short', words: 2 });
  });

  it.each([
    ['an encrypted PDF', () => encryptedPdf(), 'pdf_encrypted'],
    ['a truncated PDF', async () => (await textPdf(OUTGOING_TEXT)).slice(0, 400), 'pdf_unreadable'],
    ['a PDF of thousands of pages', () => manyPagesPdf(3000), 'pdf_too_many_pages'],
    ['a PDF over 10 MB', () => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(11 * 1024 * 1024, 0x20)]), 'pdf_too_large'],
  ])('answers %s with the no-personality answer and exit 0, as HTTP does', async (_label, make, reason) => {
    const file = path.join(dir, `${reason}.pdf`);
    writeFileSync(file, await make());
    const result = await runCliInProcess(['analyze', file], env());
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ file, ...NO_PERSONALITY, reason });
  });

  it('batch mode writes one result per input line, bad lines included', async () => {
    const file = path.join(dir, 'in.jsonl');
    writeFileSync(file, [JSON.stringify({ id: 'a', text: OUTGOING_TEXT }), '{not json', JSON.stringify({ id: 'b', text: RESERVED_TEXT }), JSON.stringify({ id: 'c', text: 'too short' })].join('\n'));
    const result = await runCliInProcess(['analyze', '--jsonl', file], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['a', 'line 2', 'b', 'c']);
    expect(lines[0]).toMatchObject({ ok: true, disc_type: expect.any(String), disc_intensity: expect.any(Number), confidence: expect.any(Number) });
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4]);
    expect(lines[1]).toEqual({ id: 'line 2', line: 2, ok: false, reason: 'invalid_json' });
    expect(lines[3]).toMatchObject({ ok: false, reason: 'text_too_short' });
    expect(lines[0].traits.extraversion).toBeGreaterThan(lines[2].traits.extraversion);
  });

  it('reports the words a rejected line holds, and a string id for every line', async () => {
    const file = path.join(dir, 'ids.jsonl');
    writeFileSync(file, [JSON.stringify({ id: 'b', text: 'too short' }), JSON.stringify({ text: 'no id here' }), JSON.stringify({ id: 7, text: 'numbered' }), JSON.stringify({ id: 'd' })].join('\n'));
    const result = await runCliInProcess(['analyze', '--jsonl', file], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: 'b', line: 1, ok: false, reason: 'text_too_short', words: 2, words_read: 0 },
      { id: 'line 2', line: 2, ok: false, reason: 'text_too_short', words: 3, words_read: 0 },
      { id: '7', line: 3, ok: false, reason: 'text_too_short', words: 1, words_read: 0 },
      { id: 'd', line: 4, ok: false, reason: 'missing_text' },
    ]);
    const help = await runCliInProcess(['analyze', '--help'], env());
    expect(help.stdout).toMatch(/The id is always a string/);
  });

  it('batch mode reads a file that starts with a byte-order mark', async () => {
    const { code, lines } = await batch('bom.jsonl', `\uFEFF${JSON.stringify({ id: 'a', text: OUTGOING_TEXT })}\n`);
    expect(code).toBe(0);
    expect(lines).toEqual([expect.objectContaining({ id: 'a', line: 1, ok: true })]);
  });

  it('batch mode says why a line could not be read, and gives every result its line number', async () => {
    const content = [
      JSON.stringify({ id: 'a', text: 12345 }),
      '[1, 2]',
      '',
      '"just a string"',
      JSON.stringify({ id: 'b' }),
      JSON.stringify({ text: OUTGOING_TEXT }),
      JSON.stringify({ text: null }),
    ].join('\n');
    const { code, lines } = await batch('kinds.jsonl', content);
    expect(code).toBe(0);
    expect(lines).toEqual([
      { id: 'a', line: 1, ok: false, reason: 'text_not_string' },
      { id: 'line 2', line: 2, ok: false, reason: 'not_an_object' },
      { id: 'line 4', line: 4, ok: false, reason: 'not_an_object' },
      { id: 'b', line: 5, ok: false, reason: 'missing_text' },
      expect.objectContaining({ id: 'line 6', line: 6, ok: true }),
      { id: 'line 7', line: 7, ok: false, reason: 'text_not_string' },
    ]);
  });

  it('batch mode sums the run up on stderr', async () => {
    const content = [
      JSON.stringify({ id: 'a', text: OUTGOING_TEXT }),
      JSON.stringify({ id: 'b', text: 'too short' }),
      '{not json',
      JSON.stringify({ id: 'c' }),
    ].join('\n');
    const { code, stderr } = await batch('summary.jsonl', content);
    expect(code).toBe(0);
    expect(stderr).toBe('rapport: 2 lines analysed (1 without a personality), 2 could not be read.\n');
  });

  it('batch mode exits 1 when no line could be read, after the results of each', async () => {
    const { code, stdout, stderr, file, lines } = await batch('unread.jsonl', ['[1]', '{"id":"x","text":5}', '{oops'].join('\n'));
    expect(code).toBe(1);
    expect(lines.map((l) => l.reason)).toEqual(['not_an_object', 'text_not_string', 'invalid_json']);
    expect(stdout.split('\n').length).toBe(4);
    expect(stderr).toBe(
      'rapport: 0 lines analysed (0 without a personality), 3 could not be read.\n' +
        `rapport: No line of ${file} could be read: each line must be a JSON object with a "text" string.\n`,
    );
  });

  it('batch mode stops early on a file that is not JSON Lines, such as a PDF', async () => {
    const file = path.join(dir, 'resume-as-batch.pdf');
    writeFileSync(file, await textPdf(`${RESUME_TEXT}\n${OUTGOING_TEXT}`));
    const result = await runCliInProcess(['analyze', '--jsonl', file], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`rapport: ${file} does not look like JSON Lines (one JSON object per line).\n`);
  });

  it('refuses a FILE together with --jsonl rather than ignore one', async () => {
    const text = path.join(dir, 'both.txt');
    writeFileSync(text, OUTGOING_TEXT);
    const { file } = await batch('both.jsonl', JSON.stringify({ id: 'a', text: OUTGOING_TEXT }));
    const result = await runCliInProcess(['analyze', text, '--jsonl', file], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/give either a FILE or --jsonl, not both/);
  });

  it('reports the words of a short file as written', async () => {
    const file = path.join(dir, 'note.txt');
    writeFileSync(file, 'too short');
    const out = JSON.parse((await runCliInProcess(['analyze', file], env())).stdout);
    expect(out).toMatchObject({ data: null, reason: 'text_too_short', words: 2 });
  });

  it('says in a sentence that the file does not exist, for a file and for --jsonl', async () => {
    for (const args of [['analyze', 'missing.pdf'], ['analyze', '--jsonl', 'missing.jsonl']]) {
      const result = await runCliInProcess(args, env());
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`rapport: Cannot read ${args.at(-1)}: no such file.\n`);
    }
  });

  it('says so when the path is a directory', async () => {
    const result = await runCliInProcess(['analyze', dir], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`rapport: Cannot read ${dir}: not a regular file.\n`);
  });
});
