import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Per-file CPU, for measuring the suite (test/helpers/file-cpu.ts); off unless asked for.
    setupFiles: process.env.RAPPORT_TEST_CPU_LOG ? ['test/helpers/file-cpu.ts'] : [],
    pool: 'forks',
    // PGlite and PDF workers are CPU-heavy; two cores run two files at a time.
    maxWorkers: 2,
    // The longest files first, so the last file to finish is a short one.
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
