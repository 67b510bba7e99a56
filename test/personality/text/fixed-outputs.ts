/**
 * Digests of what the text model answers for a sample of real essays, so that a change to
 * the text pipeline that is meant to keep outputs identical (speed work) can prove it.
 * Regenerate after a retrain: `npx tsx test/personality/text/fixed-outputs.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeText, cleanLabelledText, loadModel } from '../../../src/personality/text/index.ts';
import { stripMarkup } from '../../../src/personality/text/markup.ts';

export const ESSAYS_PATH = fileURLToPath(new URL('../../../../shared/data/essays/essays.jsonl', import.meta.url));
export const FIXTURE_PATH = fileURLToPath(new URL('../../fixtures/text-outputs.json', import.meta.url));

export interface FixedOutput {
  id: string;
  /** Extraversion score (plain text), readable in a diff. */
  extraversion: number | null;
  /** Digest of the outputs (kind guessed, and read as an email) and the cleaned texts, evidence included. */
  digest: string;
}

export interface Fixture {
  modelVersion: string;
  outputs: FixedOutput[];
}

/** Every tenth essay: about 200 texts of ordinary prose. */
export function sampleEssays(): { id: string; text: string }[] {
  if (!existsSync(ESSAYS_PATH)) return [];
  return readFileSync(ESSAYS_PATH, 'utf8')
    .trim()
    .split('\n')
    .filter((_, index) => index % 10 === 0)
    .map((line) => JSON.parse(line) as { id: string; text: string });
}

const model = loadModel();

export function fixedOutput(id: string, text: string): FixedOutput {
  const plain = analyzeText(text, { evidence: true, model });
  const asEmail = analyzeText(text, { textType: 'email', evidence: true, model });
  const everything = JSON.stringify([plain, asEmail, cleanLabelledText(text), stripMarkup(text)]);
  return {
    id,
    extraversion: plain.ok ? plain.estimate.scores.extraversion : null,
    digest: createHash('sha256').update(everything).digest('hex').slice(0, 24),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fixture: Fixture = {
    modelVersion: model.version,
    outputs: sampleEssays().map(({ id, text }) => fixedOutput(id, text)),
  };
  writeFileSync(FIXTURE_PATH, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`wrote ${fixture.outputs.length} outputs to ${FIXTURE_PATH}`);
}
