import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An upload written to disk as it arrived, not yet tied to an analysis. */
export interface SpooledUpload {
  /** Where it lies (a `.part` file in the spool directory). */
  file: string;
  size: number;
  /** Its first bytes, enough to check the PDF signature without reading the file again. */
  head: Uint8Array;
}

/** The upload was larger than allowed; what arrived so far is already deleted. */
export class UploadTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`upload larger than ${maxBytes} bytes`);
    this.name = 'UploadTooLarge';
  }
}

const HEAD_BYTES = 1024;
/**
 * Bytes gathered before one write to disk. A socket hands over 16-64 KB at a time; each write
 * is a call into the thread pool from the event loop, and with many uploads at once those calls
 * (and the thread switches they cause on a small machine) were a large part of the main thread's
 * time. One write per MiB is 16 to 64 times fewer, for at most 1 MiB held per upload.
 */
const WRITE_BYTES = 1024 * 1024;
/** A `.part` file this old belongs to no upload in progress (uploads time out much sooner). */
const STALE_PART_MS = 10 * 60 * 1000;

/**
 * Uploaded PDFs on disk: streamed in as they arrive (memory stays bounded however many uploads
 * run at once), then kept under the analysis id until the analysis ends, so a restart or a
 * crash mid-job still finds the file. Writing the bytes into the embedded database instead
 * would hold its single thread, and every other request, for seconds.
 */
export class UploadSpool {
  private inFlight = 0;
  private readonly inFlightByToken = new Map<string, number>();

  /** `maxAtOnce`: uploads this process receives at once (RAPPORT_UPLOADS_AT_ONCE). */
  constructor(
    readonly dir: string,
    readonly maxAtOnce = 64,
  ) {}

  /** Writes a stream to a new `.part` file, refusing (and deleting) it past `maxBytes`. */
  async receive(source: Readable, maxBytes: number): Promise<SpooledUpload> {
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${randomBytes(12).toString('hex')}.part`);
    let size = 0;
    const headChunks: Buffer[] = [];
    let headSize = 0;
    let pending: Buffer[] = [];
    let pendingSize = 0;
    const release = (push: (chunk: Buffer) => void) => {
      if (pendingSize === 0) return;
      push(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingSize));
      pending = [];
      pendingSize = 0;
    };
    const gather = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) return callback(new UploadTooLarge(maxBytes));
        if (headSize < HEAD_BYTES) {
          headChunks.push(chunk.subarray(0, HEAD_BYTES - headSize));
          headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
        }
        pending.push(chunk);
        pendingSize += chunk.length;
        if (pendingSize >= WRITE_BYTES) release((buffer) => this.push(buffer));
        callback();
      },
      flush(callback) {
        release((buffer) => this.push(buffer));
        callback();
      },
    });
    try {
      await pipeline(source, gather, createWriteStream(file, { flags: 'wx', highWaterMark: WRITE_BYTES }));
    } catch (error) {
      await unlink(file).catch(() => undefined);
      throw error;
    }
    return { file, size, head: new Uint8Array(Buffer.concat(headChunks)) };
  }

  /** Uploads being received now, in all and per token. */
  get receiving(): number {
    return this.inFlight;
  }

  receivingFor(tokenId: string): number {
    return this.inFlightByToken.get(tokenId) ?? 0;
  }

  /**
   * Places one token may hold at once: half of them, so a client that opens many slow uploads
   * (each holds its place until REQUEST_TIMEOUT) cannot shut every other token out.
   */
  get maxPerToken(): number {
    return Math.max(1, Math.ceil(this.maxAtOnce / 2));
  }

  /**
   * Takes one of the `maxAtOnce` places for an upload about to be received: refused when all
   * are taken (`process`), or when the token holds its share already (`token`). The caller gives
   * the place back with `leave` once the request is over, however it ended (see the route: it
   * is tied to the response's `close`).
   */
  enter(tokenId: string): { leave: () => void } | { refused: 'process' | 'token' } {
    if (this.inFlight >= this.maxAtOnce) return { refused: 'process' };
    if (this.receivingFor(tokenId) >= this.maxPerToken) return { refused: 'token' };
    this.inFlight += 1;
    this.inFlightByToken.set(tokenId, this.receivingFor(tokenId) + 1);
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      this.inFlight -= 1;
      const rest = this.receivingFor(tokenId) - 1;
      if (rest > 0) this.inFlightByToken.set(tokenId, rest);
      else this.inFlightByToken.delete(tokenId);
    };
    return { leave };
  }

  /** The file of an analysis in progress. */
  pathOf(analysisId: string): string {
    return path.join(this.dir, `${analysisId.replace(/[^\w-]/g, '_')}.pdf`);
  }

  /** Gives an upload the name of its analysis. */
  async keep(upload: SpooledUpload, analysisId: string): Promise<string> {
    const target = this.pathOf(analysisId);
    await rename(upload.file, target);
    return target;
  }

  /** Whether the file of an analysis in progress is here (it may lie on another machine). */
  async has(analysisId: string): Promise<boolean> {
    return (await stat(this.pathOf(analysisId)).catch(() => null))?.isFile() ?? false;
  }

  /**
   * Writes chunks (read one at a time from elsewhere, the database) to the file of an analysis,
   * under a temporary name renamed when complete, so a half-written file is never taken for whole.
   */
  async restore(analysisId: string, chunks: AsyncIterable<Uint8Array>): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const target = this.pathOf(analysisId);
    const part = path.join(this.dir, `${randomBytes(12).toString('hex')}.part`);
    try {
      await pipeline(Readable.from(chunks), createWriteStream(part, { flags: 'wx', highWaterMark: WRITE_BYTES }));
      await rename(part, target);
    } catch (error) {
      await unlink(part).catch(() => undefined);
      throw error;
    }
    return target;
  }

  /** Reads a spooled file back in pieces of `chunkBytes` (to copy it elsewhere, the database). */
  chunksOf(file: string, chunkBytes: number): AsyncIterable<Buffer> {
    return createReadStream(file, { highWaterMark: chunkBytes });
  }

  async discard(file: string): Promise<void> {
    await unlink(file).catch(() => undefined);
  }

  async remove(analysisId: string): Promise<void> {
    await this.discard(this.pathOf(analysisId));
  }

  /**
   * Deletes files no analysis needs: those of analyses that ended (a crash between recording
   * the outcome and deleting the file) or never began (a crash mid-upload). Returns how many.
   */
  async sweep(inProgress: ReadonlySet<string>): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw error;
    }
    const keep = new Set([...inProgress].map((id) => path.basename(this.pathOf(id))));
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.dir, name);
      const stale = name.endsWith('.part') && Date.now() - ((await stat(file).catch(() => null))?.mtimeMs ?? 0) > STALE_PART_MS;
      if ((name.endsWith('.pdf') && !keep.has(name)) || stale) {
        await this.discard(file);
        removed += 1;
      }
    }
    return removed;
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
