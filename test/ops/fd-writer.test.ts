import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fdWriter } from '../../src/shared/fd-writer.ts';

const opened: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): { file: string; fd: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-fd-writer-'));
  dirs.push(dir);
  const file = path.join(dir, 'out');
  const fd = openSync(file, 'w');
  opened.push(fd);
  return { file, fd };
}

describe('fdWriter', () => {
  it('writes every byte in order, multi-byte characters included', () => {
    const { file, fd } = tempFile();
    const out = fdWriter(fd);
    const lines = Array.from({ length: 300 }, (_, n) => `{"n":${n},"name":"Lucía Ñúñez 📊"}\n`);
    for (let n = 0; n < lines.length; n += 30) out.write(lines.slice(n, n + 30).join(''));
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it.skipIf(!existsSync('/dev/full'))('a failed write (a full disk) loses that batch and says so on standard error once, not once a batch', () => {
    const full = openSync('/dev/full', 'w');
    opened.push(full);
    const errors = tempFile();
    const out = fdWriter(full, errors.fd);
    for (let n = 0; n < 3; n += 1) out.write(`{"n":${n}}\n`);
    const said = readFileSync(errors.file, 'utf8');
    expect(said.match(/the log could not be written to its output \(ENOSPC\); the lines of that moment are lost/g)).toHaveLength(1);
  });
});
