/**
 * The text model's full answers over a fixed set of texts, as JSON Lines, so two versions of
 * the analyzer can be compared byte for byte (a change meant to make it cheaper must not move
 * any output):
 *
 *   npx tsx bench/text-outputs.ts [root] > out.jsonl      # root: a checkout (default: this one)
 *   cmp <(npx tsx bench/text-outputs.ts /work/main) <(npx tsx bench/text-outputs.ts)
 *
 * Texts: every text of the labelled professional corpus and the first 400 essays (when
 * ../shared/data is there), each read plainly and with evidence, as guessed and as each kind of
 * writing, and as sent with labels and markup added, so the span locator is exercised too.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const api = (await import(pathToFileURL(path.join(root, 'src/personality/text/index.ts')).href)) as typeof import('../src/personality/text/index.ts');

export function fixedTexts(): string[] {
  const here = path.join(import.meta.dirname, '..');
  const texts = readFileSync(path.join(here, 'training/corpus/professional.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => String((JSON.parse(line) as { text?: unknown }).text ?? ''));
  const essays = path.join(here, '../shared/data/essays/essays.jsonl');
  if (existsSync(essays)) {
    const lines = readFileSync(essays, 'utf8').split('\n').filter(Boolean).slice(0, 400);
    for (const line of lines) texts.push(String((JSON.parse(line) as { text?: unknown }).text ?? ''));
  }
  return texts;
}

const model = api.loadModel();
const texts = fixedTexts();
const out: string[] = [];
texts.forEach((text, i) => {
  const dressed = `Title: Notes ${i}\n<p>${text.replace(/\n\n/g, '</p>\n\n<p>')}</p>\n\nSent from my phone`;
  for (const [label, sent] of [['plain', text], ['dressed', dressed]] as const) {
    for (const textType of [undefined, ...api.TEXT_TYPES]) {
      const evidence = label === 'dressed' || textType === undefined || textType === 'bio';
      const plain = api.analyzeText(sent, { model, textType });
      out.push(JSON.stringify({ i, label, textType: textType ?? null, plain, evidence: evidence ? api.analyzeText(sent, { model, textType, evidence: true }) : null }));
    }
  }
});
process.stdout.write(`${out.join('\n')}\n`);
