import { writeSync as fsWriteSync } from 'node:fs';

/** What the service's log is written through: text in, every byte out in order, or an end. */
export interface FlushableStream {
  write(text: string): void;
  flush(callback?: (error?: Error) => void): void;
  flushSync(): void;
}

export interface FdWriterOptions {
  /** Where the writer says what went wrong (standard error). */
  errorFd?: number;
  /** fs.writeSync's shape (tests give one that fails as an output can). */
  writeSync?: (fd: number, bytes: Buffer, offset: number, length: number) => number;
  /** Whole lines a write at most (PIPE_BUF, 4,096 bytes; a longer line goes alone). */
  chunkBytes?: number;
  /** Bytes kept while the output is behind; newer lines are dropped past it. */
  maxBacklogBytes?: number;
  /** How long the exit waits, without progress, for an output that is behind. */
  exitWaitMs?: number;
}

/** How often bytes held back are tried again while the output is behind. */
const RETRY_MS = 10;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const NEWLINE = 0x0a;
/** Linux's PIPE_BUF: a pipe takes a write of at most this many bytes whole or not at all. */
const PIPE_BUF = 4096;

/**
 * A file descriptor written synchronously with fs.writeSync, every byte, in the order given.
 * Used for the log's batches (logger.ts batchedStdout): a batch is written before the next, and
 * what is left at exit after it, where an asynchronous write still in libuv's thread pool raced
 * the exit's flush. A plain writeSync, not pino's synchronous SonicBoom: the same batches cost the
 * service ~15 µs more a request through SonicBoom's synchronous mode (`GET /v1/usage`, alternated
 * rounds; docs/benchmarks.md, fourteenth session), and no more through this than through
 * SonicBoom's asynchronous mode.
 *
 * A pipe or socket on standard output is usually non-blocking (Node's own process.stdout makes
 * it so): when its reader is behind (EAGAIN), what was not taken is held, in order, and tried
 * again every 10 ms, so the service is not held up; past `maxBacklogBytes` (4 MiB) newer lines
 * are dropped, said once on standard error. At exit the rest is written, waiting up to two
 * seconds without progress. When the output is gone (EPIPE: the reader closed it; EBADF), one
 * line on standard error says so and nothing more is written there; the service goes on. Any
 * other failure (a full disk under a log file) drops those bytes, said once a kind, and the next
 * batch starts on a line of its own.
 *
 * Each write is whole lines of at most 4,096 bytes (PIPE_BUF), which a pipe takes whole or not
 * at all: processes sharing one output (`serve --processes N`, its primary, a `rapport worker`
 * under the same supervisor) cannot cut into each other's lines. A line longer than that goes
 * in a write of its own and can still be cut; ~4 writes where 1 would do under load is a few
 * hundred writes a second.
 */
export function fdWriter(fd: number, options: FdWriterOptions = {}): FlushableStream {
  const writeSync = options.writeSync ?? ((target: number, bytes: Buffer, offset: number, length: number) => fsWriteSync(target, bytes, offset, length));
  const chunkBytes = options.chunkBytes ?? PIPE_BUF;
  const errorFd = options.errorFd ?? 2;
  const maxBacklogBytes = options.maxBacklogBytes ?? 4 * 1024 * 1024;
  const exitWaitMs = options.exitWaitMs ?? 2_000;
  /**
   * Bytes the output has not taken yet, oldest first, one buffer a batch: a batch added while the
   * output is behind is not copied onto what is held.
   */
  const held: Buffer[] = [];
  let heldBytes = 0;
  let retry: NodeJS.Timeout | null = null;
  let broken = false;
  /** A write cut short by a failure left a line unfinished: the next bytes start a new one. */
  let cutMidLine = false;
  /** Writes that failed other than by the output being behind (what is held is dropped then). */
  let failures = 0;
  const told = new Set<string>();

  const tell = (kind: string, what: string): void => {
    if (told.has(kind)) return;
    told.add(kind);
    try {
      fsWriteSync(errorFd, `Rapport: the log could not be written to its output (${kind}); ${what}\n`);
    } catch {
      // Standard error is gone as well: nothing is left to tell.
    }
  };

  /** Writes what the output takes of `bytes` now; returns the rest when it is behind, else null. */
  const writeNow = (bytes: Buffer): Buffer | null => {
    let written = 0;
    while (written < bytes.length) {
      let taken: number;
      try {
        taken = writeSync(fd, bytes, written, chunkEnd(bytes, written, chunkBytes) - written);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
        if (code === 'EAGAIN' || code === 'EBUSY') return bytes.subarray(written);
        cutMidLine = written > 0 && bytes[written - 1] !== NEWLINE;
        failures += 1;
        if (code === 'EPIPE' || code === 'EBADF') {
          broken = true;
          tell(code, 'no more lines are written there.');
        } else {
          tell(code, 'the lines of that moment are lost; the next are tried.');
        }
        return null;
      }
      if (taken <= 0) return bytes.subarray(written);
      written += taken;
    }
    return null;
  };

  /** Writes what is held, oldest first, until the output is behind again; a failure drops it all. */
  const writeHeld = (): void => {
    const failuresBefore = failures;
    while (held.length > 0 && !broken) {
      const head = held[0] ?? Buffer.alloc(0);
      const rest = writeNow(head);
      heldBytes -= head.length - (rest?.length ?? 0);
      if (rest !== null) {
        held[0] = rest;
        return;
      }
      held.shift();
      if (failures !== failuresBefore) break;
    }
    held.length = 0;
    heldBytes = 0;
  };

  const drain = (): void => {
    retry = null;
    writeHeld();
    scheduleRetry();
  };

  const scheduleRetry = (): void => {
    if (held.length === 0 || broken || retry !== null) return;
    retry = setTimeout(drain, RETRY_MS);
    // The exit writes what is held: held bytes must not keep the process alive.
    retry.unref();
  };

  const write = (text: string): void => {
    if (broken || text === '') return;
    const bytes = Buffer.from(cutMidLine ? `\n${text}` : text, 'utf8');
    cutMidLine = false;
    if (held.length === 0) {
      const rest = writeNow(bytes);
      if (rest !== null) {
        held.push(rest);
        heldBytes = rest.length;
      }
    } else if (heldBytes + bytes.length <= maxBacklogBytes) {
      // Behind: after what is held, in order.
      held.push(bytes);
      heldBytes += bytes.length;
    } else {
      tell('EAGAIN', `its reader is behind by more than ${maxBacklogBytes} bytes: newer lines are dropped until it catches up.`);
    }
    scheduleRetry();
  };

  const flushSync = (): void => {
    if (retry !== null) clearTimeout(retry);
    retry = null;
    let waitedMs = 0;
    while (held.length > 0 && !broken && waitedMs < exitWaitMs) {
      const before = heldBytes;
      writeHeld();
      if (held.length === 0) break;
      if (heldBytes < before) waitedMs = 0;
      Atomics.wait(sleeper, 0, 0, 1);
      waitedMs += 1;
    }
    if (held.length > 0 && !broken) tell('EAGAIN at exit', 'its reader did not take the last lines in time; they are lost.');
    held.length = 0;
    heldBytes = 0;
  };

  return {
    write,
    flush: (callback) => {
      drain();
      callback?.();
    },
    flushSync,
  };
}

/** Where the write from `start` ends: after the last whole line within `limit` bytes, or after the first line if it is longer. */
function chunkEnd(bytes: Buffer, start: number, limit: number): number {
  if (bytes.length - start <= limit) return bytes.length;
  const lastNewline = bytes.lastIndexOf(NEWLINE, start + limit - 1);
  if (lastNewline >= start) return lastNewline + 1;
  const lineEnd = bytes.indexOf(NEWLINE, start + limit);
  return lineEnd < 0 ? bytes.length : lineEnd + 1;
}
