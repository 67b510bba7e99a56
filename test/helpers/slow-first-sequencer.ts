import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (measured on the 2-core machine, whole suite).
 * Two files run at a time: one of these starting last would leave one core idle while it runs
 * on the other. Vitest orders by the last run's durations when it has them
 * (node_modules/.vite), but a fresh clone, as in CI, has none and would order by file size.
 * A file missing from this list only starts later; keep it roughly true when a file grows slow.
 */
const SLOWEST_FIRST = [
  'test/http/pdf-uploads-healthz.test.ts',
  'test/cli/backup.test.ts',
  'test/web/disc-map-renderer.test.ts',
  'test/cli/tokens.test.ts',
  'test/people/forget.test.ts',
  'test/db/private-files.test.ts',
  'test/cli/first-steps.test.ts',
  'test/webhooks/service-process.test.ts',
  'test/web/assessment.browser.test.ts',
  'test/web/front-door.browser.test.ts',
  'test/personality/pdf/extract.test.ts',
  'test/people/cli.test.ts',
  'test/web/signup.test.ts',
  'test/http/analysis-text-pool.test.ts',
  'test/db/embedded-footprint.test.ts',
  'test/cli/service-lifecycle.test.ts',
  'test/cli/signals.test.ts',
  'test/cli/analyze.test.ts',
  'test/ops/ops-listener.test.ts',
  'test/personality/text/linear-time.test.ts',
  'test/http/analysis-pdf.test.ts',
  'test/personality/text/pool.test.ts',
  'test/http/pdf-uploads.test.ts',
  'test/cli/users.test.ts',
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = SLOWEST_FIRST.findIndex((name) => file.moduleId.endsWith(name));
      return index < 0 ? SLOWEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
