import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    // PGlite and PDF workers are CPU-heavy; two cores run two files at a time.
    maxWorkers: 2,
    // Test files share their worker process instead of each starting a fresh one (~2.4 s of CPU
    // a file: Node, vitest and the code they import). Test files therefore leave nothing behind:
    // what they open they close in afterAll, what they change (process.env, timers) they restore.
    isolate: false,
    // The longest files first, so the last file to finish is a short one.
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
