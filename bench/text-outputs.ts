/**
 * The text model's full answers over a fixed set of texts, as JSON Lines, so two versions of
 * the analyzer can be compared byte for byte (a change meant to make it cheaper must not move
 * any output):
 *
 *   npx tsx bench/text-outputs.ts [root] > out.jsonl      # root: a checkout (default: this one)
 *   cmp <(npx tsx bench/text-outputs.ts /work/main) <(npx tsx bench/text-outputs.ts)
 *
 * Texts: every text of the labelled professional corpus and the first 400 essays (when
 * training/corpus/essays.jsonl is there: not committed, see training/corpus/README.md), each
 * read plainly and with evidence, as guessed and as each kind of writing, and as sent with
 * labels and markup added, so the span locator is exercised too.
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
  const essays = path.join(here, 'training/corpus/essays.jsonl');
  if (existsSync(essays)) {
    const lines = readFileSync(essays, 'utf8').split('\n').filter(Boolean).slice(0, 400);
    for (const line of lines) texts.push(String((JSON.parse(line) as { text?: unknown }).text ?? ''));
  }
  return [...texts, ...edgeTexts()];
}

/**
 * Shapes the reader's shortcuts must read as before: white space other than single spaces,
 * separators at a line's edges, e-mails, web addresses and bare domains, dates, phone numbers,
 * pipes and lists, in prose lines and in labelled ones, and the bench's adversarial shapes.
 */
function edgeTexts(): string[] {
  const prose =
    'I lead the data team at a small company and I care about shipping things that work. We met our targets this quarter, ' +
    'and I am proud of how the team handled a hard migration. I write a weekly note to everyone and I answer questions quickly. ';
  const lines = [
    'Email: jane.doe+work@example.co.uk — call +1 (555) 123-4567 or see https://example.com/jane and acme.io/jobs.',
    'Experience\n- Led the platform team | 2019 – present | Acme Corp\n• Grew revenue 30% in 2021, from $2M to $3.5M.',
    'Skills: Python, SQL, Docker | Kubernetes · Terraform / AWS',
    '\t  Leading spaces,\u00a0non-breaking\u2003em spaces\u2009and tabs\tinside a line  ,  ',
    '-- dashes at the edges --',
    ', ; : – — separators first and last : ; ,',
    'Jan 2018 - Dec 2020: managed a team of 12 across 3 time zones, reporting to the CTO.',
    'Visit WWW.EXAMPLE.ORG or HTTP://localhost:8080/path for details; write to ME@EXAMPLE.IO.',
    'Page 2 of 3',
    'SUMMARY:',
    'A sentence without an ending that still has more than five words in it',
    'Title Cased Fragment Of Several Capitalised Words Here',
  ];
  const shapes = ['a'.repeat(5000), 'ab'.repeat(2500), '.'.repeat(5000), '1'.repeat(5000), `${'a'.repeat(4998)} @`, 'www.'.repeat(1250), '<!--'.repeat(1250), 'a-'.repeat(2500), `x${' '.repeat(4998)}x`];
  return [...lines.map((line) => `${prose}\n${line}\n${prose}`), lines.join('\n'), `${lines.join('\n\n')}\n${prose.repeat(3)}`, ...shapes, ...shapes.map((shape) => `${prose}${shape} ${prose}`)];
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
