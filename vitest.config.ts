import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // The check that a file leaves the shared worker as it found it (see isolate below), and the
    // per-file CPU for measuring the suite (test/helpers/file-cpu.ts), off unless asked for.
    setupFiles: ['test/helpers/shared-worker.ts', ...(process.env.RAPPORT_TEST_CPU_LOG ? ['test/helpers/file-cpu.ts'] : [])],
    pool: 'forks',
    // Files share their worker process and its loaded modules: the code under test (~3.5 s of
    // CPU for src/app.ts and its graph) loads once per worker, not once per file. A file that
    // changes process-wide state (environment, working directory, umask, timers, listeners,
    // spies) puts it back in its own hooks; test/helpers/shared-worker.ts fails a file that does not.
    isolate: false,
    // PGlite and PDF workers are CPU-heavy; two cores run two files at a time.
    maxWorkers: 2,
    // The longest files first, so the last file to finish is a short one.
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
