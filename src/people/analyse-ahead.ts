import type { Queryable } from '../db/client.ts';
import type { TextPool } from '../personality/text/pool.ts';
import { analyzeTexts, analyzeTextsOffThread } from './analyze.ts';
import type { PersonInput } from './person.ts';
import { textsHash, type Analyze } from './upsert.ts';

type Analysed = ReturnType<Analyze>;

/**
 * The texts of an import batch analysed on the text pool's worker threads before the batch is
 * written, so that one batch is read and analysed while the one before it is written (the
 * embedded database runs on this thread; the analysis was most of an import's time).
 *
 * Which rows the write will analyse is guessed from the stored texts' hashes: a row whose stored
 * person has the same texts is not analysed again (importing a file twice stays cheap). The
 * guess only decides what is done ahead: the returned Analyze serves a result made ahead for the
 * very texts asked about, and analyses anything else on this thread as before, so what is stored
 * is the same either way (analysis is deterministic, and the worker reads the same model file).
 */
export async function analyseAhead(db: Queryable, pool: TextPool, inputs: readonly PersonInput[]): Promise<Analyze> {
  const emails = inputs.flatMap((i) => (i.emailNormalized ? [i.emailNormalized] : []));
  const keys = inputs.flatMap((i) => (i.linkedinKey ? [i.linkedinKey] : []));
  const stored = await db.query<{ email_normalized: string | null; linkedin_key: string | null; texts_hash: string | null; verified: boolean }>(
    'SELECT email_normalized, linkedin_key, texts_hash, verified FROM people WHERE email_normalized = ANY($1::text[]) OR linkedin_key = ANY($2::text[])',
    [emails, keys],
  );
  const byIdentifier = new Map<string, { textsHash: string | null; verified: boolean }>();
  for (const row of stored) {
    const known = { textsHash: row.texts_hash, verified: row.verified };
    if (row.email_normalized) byIdentifier.set(`e:${row.email_normalized}`, known);
    if (row.linkedin_key) byIdentifier.set(`l:${row.linkedin_key}`, known);
  }
  const ahead = new Map<PersonInput['texts'], Promise<Analysed>>();
  for (const input of inputs) {
    if (input.texts.length === 0) continue;
    const known = (input.emailNormalized ? byIdentifier.get(`e:${input.emailNormalized}`) : undefined) ?? (input.linkedinKey ? byIdentifier.get(`l:${input.linkedinKey}`) : undefined);
    if (known && (known.verified || known.textsHash === textsHash(input.texts))) continue;
    ahead.set(input.texts, analyzeTextsOffThread(pool, input.texts));
  }
  // Settled before the write's transaction starts: it must not wait on threads while it holds the database.
  const results = new Map<PersonInput['texts'], Analysed>();
  await Promise.all([...ahead].map(async ([texts, result]) => results.set(texts, await result)));
  return (texts) => results.get(texts) ?? analyzeTexts(pool.options.model, texts);
}
