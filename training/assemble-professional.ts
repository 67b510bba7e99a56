/**
 * Builds training/corpus/professional.jsonl from writers' files and fixes its split:
 *
 *   npx tsx training/assemble-professional.ts out.jsonl writer1.jsonl writer2.jsonl … [--fresh fresh.jsonl …]
 *
 * A quarter of the texts of each label in each writer's file, whole personas at a time (taken in
 * the order of the SHA-256 of their id while they fit in the quarter), is `heldout`: never
 * trained or tuned on. A new
 * writer's file never moves a persona of another file between the splits. Texts given after
 * `--fresh` were written after the model was frozen and are all `fresh`. Re-running on the same
 * files gives the same split; a text keeps the fields its writer gave it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { fresh: { type: 'string', multiple: true } } });
const [out, ...inputs] = positionals;
if (out === undefined || inputs.length === 0) throw new Error('usage: assemble-professional.ts out.jsonl writer.jsonl … [--fresh file …]');

type Row = Record<string, unknown> & { id: string; persona: string; label: string };
const read = (path: string): Row[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);

const heldOut = new Set<string>();
const hash = (value: string): string => createHash('sha256').update(value).digest('hex');
const rows = inputs.flatMap((path) => {
  const fileRows = read(path);
  const personaLabel = new Map<string, string>();
  for (const row of fileRows) {
    const known = personaLabel.get(row.persona);
    if (known !== undefined && known !== row.label) throw new Error(`persona ${row.persona} has labels ${known} and ${row.label}`);
    personaLabel.set(row.persona, row.label);
  }
  for (const label of new Set(personaLabel.values())) {
    const personas = [...personaLabel].filter(([, l]) => l === label).map(([p]) => p).sort((a, b) => hash(a).localeCompare(hash(b)));
    const textsOf = (persona: string): number => fileRows.filter((row) => row.persona === persona).length;
    const quarter = Math.round(personas.reduce((sum, persona) => sum + textsOf(persona), 0) / 4);
    let held = 0;
    for (const persona of personas) {
      if (held + textsOf(persona) > quarter) continue;
      heldOut.add(persona);
      held += textsOf(persona);
    }
  }
  return fileRows;
});
const ids = new Set<string>();
const lines = [
  ...rows.map((row) => ({ ...row, split: heldOut.has(row.persona) ? 'heldout' : 'train' })),
  ...(values.fresh ?? []).flatMap(read).map((row) => ({ ...row, split: 'fresh' })),
].map((row) => {
  if (ids.has(row.id)) throw new Error(`duplicate id ${row.id}`);
  ids.add(row.id);
  return JSON.stringify(row);
});
writeFileSync(out, `${lines.join('\n')}\n`);
const counts = lines.map((line) => (JSON.parse(line) as { split: string }).split).reduce<Record<string, number>>((acc, split) => ({ ...acc, [split]: (acc[split] ?? 0) + 1 }), {});
console.log(`${out}: ${lines.length} texts`, counts);
