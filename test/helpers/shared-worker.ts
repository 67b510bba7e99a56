import { afterAll, beforeAll, vi } from 'vitest';

/**
 * Test files share their worker process (`isolate: false`, vitest.config.ts), so what one file
 * changes for the whole process and leaves changed reaches the files after it, in an order that
 * changes from run to run. Vitest evaluates this file before each test file: it notes the
 * process-wide state a test commonly changes, and fails the file that leaves it changed (a
 * file puts back what it changes in its own afterEach/afterAll), naming what was left.
 */
const WATCHED_EVENTS = ['worker', 'SIGINT', 'SIGTERM', 'SIGHUP', 'warning'] as const;

interface ProcessState {
  env: string;
  cwd: string;
  umask: number;
  exitCode: typeof process.exitCode;
  stdoutWrite: typeof process.stdout.write;
  stderrWrite: typeof process.stderr.write;
  listeners: Record<string, number>;
}

function snapshot(): ProcessState {
  const env = Object.entries(process.env).sort(([a], [b]) => a.localeCompare(b));
  return {
    env: JSON.stringify(env),
    cwd: process.cwd(),
    umask: process.umask(),
    exitCode: process.exitCode,
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    listeners: Object.fromEntries(WATCHED_EVENTS.map((event) => [event, process.listenerCount(event)])),
  };
}

function changes(before: ProcessState, after: ProcessState): string[] {
  const left: string[] = [];
  if (before.env !== after.env) {
    const was = new Map(JSON.parse(before.env) as [string, string][]);
    const now = new Map(JSON.parse(after.env) as [string, string][]);
    const names = [...new Set([...was.keys(), ...now.keys()])].filter((name) => was.get(name) !== now.get(name));
    left.push(`process.env (${names.join(', ')})`);
  }
  if (before.cwd !== after.cwd) left.push(`the working directory (${after.cwd})`);
  if (before.umask !== after.umask) left.push(`the umask (${after.umask.toString(8)})`);
  if (before.exitCode !== after.exitCode) left.push(`process.exitCode (${String(after.exitCode)})`);
  if (before.stdoutWrite !== after.stdoutWrite) left.push('process.stdout.write');
  if (before.stderrWrite !== after.stderrWrite) left.push('process.stderr.write');
  for (const event of WATCHED_EVENTS) {
    if (before.listeners[event] !== after.listeners[event]) left.push(`${after.listeners[event] ?? 0} listeners for process '${event}' (${before.listeners[event] ?? 0} before)`);
  }
  if (vi.isFakeTimers()) left.push('fake timers (vi.useRealTimers())');
  return left;
}

/** Puts back what can be put back, so that the files after a failed one do not fail with it. */
function restore(state: ProcessState): void {
  const env = new Map(JSON.parse(state.env) as [string, string][]);
  for (const name of Object.keys(process.env)) if (!env.has(name)) Reflect.deleteProperty(process.env, name);
  for (const [name, value] of env) process.env[name] = value;
  process.chdir(state.cwd);
  process.umask(state.umask);
  process.exitCode = state.exitCode;
  process.stdout.write = state.stdoutWrite;
  process.stderr.write = state.stderrWrite;
  vi.useRealTimers();
}

let before: ProcessState | undefined;
beforeAll(() => {
  before = snapshot();
});
afterAll(() => {
  if (!before) return;
  const left = changes(before, snapshot());
  if (left.length === 0) return;
  restore(before);
  throw new Error(`this file left the shared worker process changed: ${left.join('; ')}`);
});
