import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { REPO_ROOT } from './process.ts';

/**
 * Seconds each file took in a recorded whole-suite run (test/helpers/file-durations.json,
 * written by test/helpers/record-durations.mjs from a vitest JSON report). Two files run at a
 * time: a long one starting last would leave one core idle while it runs on the other. Vitest
 * orders by the last run's durations when it has them (node_modules/.vite), but a fresh clone,
 * as in CI, has none and would order by file size.
 */
const DURATIONS: Readonly<Record<string, number>> = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/helpers/file-durations.json'), 'utf8')) as Record<string, number>;

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A file the recording does not know (a new one) starts after the recorded ones.
    const seconds = (file: TestSpecification): number => DURATIONS[path.relative(REPO_ROOT, file.moduleId).split(path.sep).join('/')] ?? -1;
    // Array.prototype.sort is stable: files of equal (or no) record keep vitest's own order.
    return sorted.sort((a, b) => seconds(b) - seconds(a));
  }
}
