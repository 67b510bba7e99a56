import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../fixtures/pdf.ts';
import { OUTGOING_TEXT, RESERVED_TEXT, RESUME_TEXT } from '../fixtures/texts.ts';
import { runCli } from '../helpers/process.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-analyze-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The analysis needs no database: point the data dir somewhere empty to prove it.
const env = () => ({ RAPPORT_DATA_DIR: path.join(dir, 'no-db') });

describe('rapport analyze', () => {
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
    const result = await runCli(['analyze', file], env());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).words).toBeGreaterThan(100);
  });

  it('reports the no-personality answer for too little text', async () => {
    const file = path.join(dir, 'short.txt');
    writeFileSync(file, 'Hello world.');
    const out = JSON.parse((await runCli(['analyze', file], env())).stdout);
    expect(out).toMatchObject({ data: null, message: 'Content did not yield a personality', reason: 'too_short' });
  });

  it('batch mode writes one result per input line, bad lines included', async () => {
    const file = path.join(dir, 'in.jsonl');
    writeFileSync(file, [JSON.stringify({ id: 'a', text: OUTGOING_TEXT }), '{not json', JSON.stringify({ id: 'b', text: RESERVED_TEXT }), JSON.stringify({ id: 'c', text: 'too short' })].join('\n'));
    const result = await runCli(['analyze', '--jsonl', file], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['a', 'line 2', 'b', 'c']);
    expect(lines[0]).toMatchObject({ ok: true, disc_type: expect.any(String), disc_intensity: expect.any(Number), confidence: expect.any(Number) });
    expect(lines[1]).toEqual({ id: 'line 2', line: 2, ok: false, reason: 'invalid_json' });
    expect(lines[3]).toMatchObject({ ok: false, reason: 'too_short' });
    expect(lines[0].traits.extraversion).toBeGreaterThan(lines[2].traits.extraversion);
  });

  it('reports the words a rejected line holds, and a string id for every line', async () => {
    const file = path.join(dir, 'ids.jsonl');
    writeFileSync(file, [JSON.stringify({ id: 'b', text: 'too short' }), JSON.stringify({ text: 'no id here' }), JSON.stringify({ id: 7, text: 'numbered' }), JSON.stringify({ id: 'd' })].join('\n'));
    const result = await runCli(['analyze', '--jsonl', file], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: 'b', ok: false, reason: 'too_short', words: 2, words_read: 0 },
      { id: 'line 2', ok: false, reason: 'too_short', words: 3, words_read: 0 },
      { id: '7', ok: false, reason: 'too_short', words: 1, words_read: 0 },
      { id: 'd', ok: false, reason: 'missing_text' },
    ]);
    const help = await runCli(['analyze', '--help'], env());
    expect(help.stdout).toMatch(/The id is always a string/);
  });

  it('reports the words of a short file as written', async () => {
    const file = path.join(dir, 'note.txt');
    writeFileSync(file, 'too short');
    const out = JSON.parse((await runCli(['analyze', file], env())).stdout);
    expect(out).toMatchObject({ data: null, reason: 'too_short', words: 2 });
  });

  it('says in a sentence that the file does not exist, for a file and for --jsonl', async () => {
    for (const args of [['analyze', 'missing.pdf'], ['analyze', '--jsonl', 'missing.jsonl']]) {
      const result = await runCli(args, env());
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`rapport: Cannot read ${args.at(-1)}: no such file.\n`);
    }
  });

  it('says so when the path is a directory', async () => {
    const result = await runCli(['analyze', dir], env());
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`rapport: Cannot read ${dir}: not a regular file.\n`);
  });
});
