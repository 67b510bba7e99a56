import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openEmbedded } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplate: string;
  }
}

/**
 * Creating a PGlite cluster takes seconds; loading a dumped one takes half a second. Build one
 * migrated template per run and let every test file start from a copy of it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-test-'));
  const file = path.join(dir, 'template.tar');
  if (!process.env.DATABASE_URL) {
    const db = await openEmbedded();
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await db.close();
  }
  project.provide('embeddedTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
