import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import type { CliResult } from './process.ts';

type Write = typeof process.stdout.write;

/** One command at a time: the process's environment and output streams are swapped for its run. */
let running: Promise<unknown> = Promise.resolve();

/**
 * Runs `rapport ARGS` in this test's own process: the same `main` (src/cli/main.ts) that
 * bin/rapport.mjs calls, with the given environment (added to this process's, as `runCli` does)
 * and working directory,
 * what it writes to stdout and stderr captured, and its exit code. A `rapport` process costs
 * ~3.4 s of CPU to start (the code, the embedded database's WebAssembly); a command run here
 * costs ~0.5 s once the first has loaded them.
 *
 * For tests of what a command prints or stores. What only a real process shows stays on
 * `runCli` (test/helpers/process.ts): the runtime bin/rapport.mjs picks, reading stdin, closed
 * pipes, signals, the lock between two processes, and at least one test per command family.
 * No terminal here, as in `runCli`: stdin, stdout and stderr say they are not TTYs.
 * `stdin`, where given, is what the command reads from standard input (a password with
 * `--password-stdin`), as `runCli` writes it to a process's; a process reading a real pipe stays
 * tested with `runCli`.
 */
export function runCliInProcess(args: string[], env: Record<string, string>, cwd?: string, stdin?: string): Promise<CliResult> {
  const run = running.then(() => runNow(args, env, cwd, stdin));
  running = run.catch(() => undefined);
  return run;
}

/** process.stdin is a getter on `process`: replaced for one command by a stream of `text`, then put back. */
function replaceStdin(text: string): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(process, 'stdin');
  Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(text)]), configurable: true, enumerable: true });
  return () => {
    if (descriptor) Object.defineProperty(process, 'stdin', descriptor);
  };
}

async function runNow(args: string[], env: Record<string, string>, cwd: string | undefined, stdin: string | undefined): Promise<CliResult> {
  const savedCwd = process.cwd();
  const savedEnv = process.env;
  const savedExitCode = process.exitCode;
  const savedUmask = process.umask();
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const streams = [process.stdin, process.stdout, process.stderr];
  const ttys = streams.map((stream) => Object.getOwnPropertyDescriptor(stream, 'isTTY'));
  let stdout = '';
  let stderr = '';
  const capture =
    (append: (text: string) => void): Write =>
      (chunk: unknown, ...rest: unknown[]) => {
        append(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
        const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
        if (callback) queueMicrotask(callback);
        return true;
      };
  process.env = { ...savedEnv, ...env };
  // Test files run in forked processes (vitest.config.ts), where a process may change directory.
  if (cwd !== undefined) process.chdir(cwd);
  process.exitCode = undefined;
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  for (const stream of streams) Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  const restoreStdin = stdin === undefined ? () => undefined : replaceStdin(stdin);
  try {
    await main([process.execPath, 'rapport', ...args]);
    const code = process.exitCode ?? 0;
    return { code: typeof code === 'number' ? code : Number(code), stdout, stderr };
  } finally {
    restoreStdin();
    process.chdir(savedCwd);
    process.env = savedEnv;
    process.exitCode = savedExitCode;
    process.umask(savedUmask);
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    streams.forEach((stream, i) => {
      const descriptor = ttys[i];
      if (descriptor) Object.defineProperty(stream, 'isTTY', descriptor);
      else Reflect.deleteProperty(stream, 'isTTY');
    });
  }
}
