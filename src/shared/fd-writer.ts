import { writeSync } from 'node:fs';

/** How long one write waits, 1 ms at a time, for a non-blocking output whose reader is behind. */
const MAX_WAIT_MS = 1_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** What the service's log is written through: text in, every byte out in order, or an end. */
export interface FlushableStream {
  write(text: string): void;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

/**
 * A file descriptor written synchronously with fs.writeSync, every byte, in the order given.
 * Used for the log's batches (logger.ts batchedStdout): a batch is written whole before the
 * next, and what is left at exit comes after it, where an asynchronous write still in libuv's
 * thread pool raced the exit's flush. A plain writeSync, not pino's synchronous SonicBoom: the
 * same batches cost the service ~15 µs more a request through SonicBoom's synchronous mode
 * (`GET /v1/usage`, alternated rounds; docs/benchmarks.md, fourteenth session), and no more
 * through this than through SonicBoom's asynchronous mode.
 *
 * A descriptor left non-blocking by a parent process (EAGAIN when its reader is behind) is waited
 * for 1 ms at a time, up to a second a write; what is still unwritten then is dropped. When the
 * output is gone (EPIPE: the reader closed it; EBADF), one line on standard error says so and the
 * service goes on without writing there again, rather than stopping. Any other failure (a full
 * disk under a log file) drops that batch, said once a kind on standard error, and the next batch
 * is tried.
 */
export function fdWriter(fd: number, errorFd = 2): FlushableStream {
  let broken = false;
  const told = new Set<string>();
  const tell = (code: string, rest: string): void => {
    if (told.has(code)) return;
    told.add(code);
    try {
      writeSync(errorFd, `Rapport: the log could not be written to its output (${code}); ${rest}\n`);
    } catch {
      // Standard error is gone as well: nothing is left to tell.
    }
  };
  const write = (text: string): void => {
    if (broken || text === '') return;
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    let waitedMs = 0;
    while (written < bytes.length) {
      try {
        written += writeSync(fd, bytes, written);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
        if ((code === 'EAGAIN' || code === 'EBUSY') && waitedMs < MAX_WAIT_MS) {
          Atomics.wait(sleeper, 0, 0, 1);
          waitedMs += 1;
          continue;
        }
        if (code === 'EAGAIN' || code === 'EBUSY') return;
        if (code === 'EPIPE' || code === 'EBADF') {
          broken = true;
          tell(code, 'no more lines are written there.');
        } else {
          tell(code, 'the lines of that moment are lost; the next are tried.');
        }
        return;
      }
    }
  };
  return {
    write,
    flush: (callback) => callback?.(),
    flushSync: () => undefined,
  };
}
