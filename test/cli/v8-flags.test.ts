import { describe, expect, it } from 'vitest';
// @ts-expect-error bin/ is plain JavaScript without type declarations.
import { isShortCommand } from '../../bin/v8-flags.mjs';

const short = (args: string[]): boolean => isShortCommand(['node', 'bin/rapport.mjs', ...args]) as boolean;

describe('the V8 settings a rapport command runs with', () => {
  it('compiles WebAssembly with the baseline compiler only for commands that touch a few rows and end', () => {
    for (const args of [['tokens', 'list'], ['users', 'create'], ['webhooks', 'list'], ['people', 'export', '--email', 'a@b.c']]) expect(short(args), args.join(' ')).toBe(true);
  });

  it('keeps V8 defaults where the database may work for minutes: serving, jobs, imports, recomputing, backups', () => {
    for (const args of [['serve'], ['worker'], ['import', 'people.csv'], ['profiles', 'recompute'], ['db', 'backup'], ['db', 'restore', 'x'], ['analyze', 'x.txt'], [], ['--version']]) {
      expect(short(args), args.join(' ')).toBe(false);
    }
  });
});
