import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelFile } from '../../src/personality/text/model-file.ts';
import { loadModel } from '../../src/personality/text/model.ts';
import { REPO_ROOT } from '../helpers/process.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rapport-train-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small labelled corpus, the same on every run: outgoing writers mention parties more. */
function writeCorpus(file: string): void {
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocabulary = 'the and we i friends talk alone quiet book think happy worried work walk today home evening music'.split(' ');
  const lines = Array.from({ length: 120 }, (_, index) => {
    const outgoing = index % 2 === 0;
    const words = Array.from({ length: 90 }, () => (outgoing && next() < 0.2 ? 'party' : (vocabulary[Math.floor(next() * vocabulary.length)] ?? 'the')));
    return JSON.stringify({ id: `doc${index}`, text: `${words.join(' ')}.`, extraversion: outgoing, openness: index % 3 === 0 });
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * `npm run train -- CORPUS --out FILE --folds 2`, as the script runs it (through tsx). Two
 * cross-validation folds, not the shipped model's ten: the same steps, ~2.5 s of CPU less a training.
 */
function train(corpus: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', 'scripts/train.ts', corpus, '--out', out, '--folds', '2'], { cwd: REPO_ROOT, timeout: 120_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

describe('npm run train', () => {
  const first = () => path.join(dir, 'first.json');

  beforeAll(async () => {
    const corpus = path.join(dir, 'corpus.jsonl');
    writeCorpus(corpus);
    await train(corpus, first());
    await train(corpus, path.join(dir, 'second.json'));
  }, 240_000);

  it('writes a byte-identical model file for the same corpus and settings', () => {
    expect(readFileSync(path.join(dir, 'second.json'), 'utf8')).toBe(readFileSync(first(), 'utf8'));
    // The file loads as a model, as the committed one does.
    expect(loadModel(first()).trainedTraits).toEqual(new Set(['extraversion', 'openness']));
  });

  it('still loads a model file written with a training timestamp', () => {
    const current: unknown = JSON.parse(readFileSync(first(), 'utf8'));
    const older = { ...(current as Record<string, unknown>), trainedAt: '2026-11-21T17:00:40.715Z' };
    expect(parseModelFile(older)).toEqual(parseModelFile(current));
    expect(parseModelFile(older)).not.toHaveProperty('trainedAt');
  });
});
