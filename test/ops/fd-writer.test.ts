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

function failure(code: string): Error {
  return Object.assign(new Error(code), { code });
}

/**
 * An output that takes at most `chunk` bytes a call and fails as `plan` says for each call
 * (null: it takes bytes), then takes bytes; what it took is `taken()`.
 */
function fakeOutput(plan: (call: number) => string | null, chunk = Infinity) {
  const received: Buffer[] = [];
  const asked: string[] = [];
  let calls = 0;
  const writeSync = (_fd: number, bytes: Buffer, offset: number, length: number): number => {
    const code = plan(calls);
    calls += 1;
    asked.push(bytes.subarray(offset, offset + length).toString('utf8'));
    if (code !== null) throw failure(code);
    const part = bytes.subarray(offset, offset + Math.min(chunk, length));
    received.push(Buffer.from(part));
    return part.length;
  };
  return { writeSync, taken: () => Buffer.concat(received).toString('utf8'), calls: () => calls, asked: () => asked };
}

const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => `{"n":${from + i},"name":"Lucía Ñúñez 📊"}\n`).join('');
const wholeLines = (text: string) => text.trimEnd().split('\n').every((line) => typeof (JSON.parse(line) as { n?: number }).n === 'number');

describe('fdWriter', () => {
  it('writes every byte in order to a file, multi-byte characters included', () => {
    const { file, fd } = tempFile();
    const out = fdWriter(fd);
    for (let n = 0; n < 300; n += 30) out.write(lines(n, 30));
    expect(readFileSync(file, 'utf8')).toBe(lines(0, 300));
  });

  it('goes on where a short write stopped, even inside a character', () => {
    const output = fakeOutput(() => null, 3);
    const out = fdWriter(1, { writeSync: output.writeSync });
    out.write(lines(0, 20));
    expect(output.taken()).toBe(lines(0, 20));
  });

  it('writes whole lines of at most 4,096 bytes a call (a pipe takes them whole), a longer line alone', () => {
    const output = fakeOutput(() => null);
    const out = fdWriter(1, { writeSync: output.writeSync });
    const long = `{"n":-1,"pad":"${'x'.repeat(5_000)}"}\n`;
    const text = lines(0, 200) + long + lines(200, 200);
    out.write(text);
    expect(output.taken()).toBe(text);
    const asked = output.asked();
    expect(asked.length).toBeGreaterThan(4);
    for (const piece of asked) {
      expect(piece.endsWith('\n')).toBe(true);
      if (piece !== long) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(4_096);
    }
    expect(asked).toContain(long);
  });

  it('holds what an output that is behind did not take, in order, and writes it when it catches up', async () => {
    // Behind (EAGAIN) on calls 2–5: part of the first batch and the next two wait.
    const output = fakeOutput((call) => (call >= 2 && call <= 5 ? 'EAGAIN' : null), 100);
    const errors = tempFile();
    const out = fdWriter(1, { writeSync: output.writeSync, errorFd: errors.fd });
    out.write(lines(0, 10));
    out.write(lines(10, 10));
    out.write(lines(20, 10));
    expect(output.taken().length).toBeLessThan(lines(0, 30).length);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(output.taken()).toBe(lines(0, 30));
    expect(readFileSync(errors.file, 'utf8')).toBe('');
  });

  it('drops newer lines past its backlog, says so once, and keeps every line it writes whole', () => {
    let behind = true;
    const output = fakeOutput(() => (behind ? 'EAGAIN' : null), 50);
    const errors = tempFile();
    const out = fdWriter(1, { writeSync: output.writeSync, errorFd: errors.fd, maxBacklogBytes: 5_000 });
    for (let n = 0; n < 300; n += 10) out.write(lines(n, 10));
    behind = false;
    out.flushSync();
    const taken = output.taken();
    expect(taken.length).toBeGreaterThan(3_000);
    expect(taken.length).toBeLessThanOrEqual(5_000);
    expect(lines(0, 300).startsWith(taken)).toBe(true);
    expect(wholeLines(taken)).toBe(true);
    expect(readFileSync(errors.file, 'utf8').match(/reader is behind by more than 5000 bytes/g)).toHaveLength(1);
  });

  it('at exit, waits a bounded time for an output that stays behind, then says the last lines are lost', () => {
    const output = fakeOutput(() => 'EAGAIN');
    const errors = tempFile();
    const out = fdWriter(1, { writeSync: output.writeSync, errorFd: errors.fd, exitWaitMs: 30 });
    out.write(lines(0, 5));
    const started = Date.now();
    out.flushSync();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(readFileSync(errors.file, 'utf8')).toMatch(/did not take the last lines in time/);
  });

  it('after a failed write (a full disk), says so once and starts the next batch on a line of its own', () => {
    // Takes 20 bytes of the first batch, then fails once.
    const output = fakeOutput((call) => (call === 1 ? 'ENOSPC' : null), 20);
    const errors = tempFile();
    const out = fdWriter(1, { writeSync: output.writeSync, errorFd: errors.fd });
    out.write(lines(0, 3));
    out.write(lines(3, 3));
    const [fragment, ...rest] = output.taken().split('\n');
    expect(fragment).toBe(Buffer.from(lines(0, 1)).subarray(0, 20).toString('utf8'));
    expect(rest.join('\n')).toBe(lines(3, 3));
    expect(readFileSync(errors.file, 'utf8').match(/\(ENOSPC\); the lines of that moment are lost/g)).toHaveLength(1);
  });

  it('stops writing to an output that is gone (EPIPE) after saying so once', () => {
    const output = fakeOutput(() => 'EPIPE');
    const errors = tempFile();
    const out = fdWriter(1, { writeSync: output.writeSync, errorFd: errors.fd });
    for (let n = 0; n < 5; n += 1) out.write(lines(n, 1));
    out.flushSync();
    expect(output.calls()).toBe(1);
    expect(readFileSync(errors.file, 'utf8').match(/\(EPIPE\); no more lines are written there/g)).toHaveLength(1);
  });

  it.skipIf(!existsSync('/dev/full'))('on a real full device (/dev/full), says ENOSPC once and keeps trying each batch', () => {
    const full = openSync('/dev/full', 'w');
    opened.push(full);
    const errors = tempFile();
    const out = fdWriter(full, { errorFd: errors.fd });
    for (let n = 0; n < 3; n += 1) out.write(lines(n, 1));
    expect(readFileSync(errors.file, 'utf8').match(/\(ENOSPC\)/g)).toHaveLength(1);
  });
});
