import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../db/client.ts';
import type { TextModel } from '../../personality/text/index.ts';
import type { Logger } from '../../shared/logger.ts';
import { importPeople, type ImportSummary } from '../import.ts';
import { countPeople } from '../repository.ts';

/** Fictional people (example.com addresses, `-demo` profile URLs) spread around the DISC circle. */
export const DEMO_PEOPLE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'people.jsonl');

/**
 * Loads the demo people into an empty database so a fresh install answers lookups at once.
 * Does nothing once the table holds anyone: an operator's own data is never mixed with them.
 */
export async function seedDemoData(ctx: { db: Db; logger: Logger; model: TextModel }): Promise<ImportSummary | null> {
  if ((await countPeople(ctx.db)) > 0) return null;
  const summary = await importPeople(ctx, DEMO_PEOPLE_FILE, { source: 'demo' });
  ctx.logger.info({ people: summary.inserted, without_personality: summary.withoutPersonality }, 'demo people loaded (RAPPORT_DEMO_DATA=false turns this off)');
  return summary;
}
