import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
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
/** A `.part` file this old belongs to no upload in progress (uploads time out much sooner). */
const STALE_PART_MS = 10 * 60 * 1000;

/**
 * Uploaded PDFs on disk: streamed in as they arrive (memory stays bounded however many uploads
 * run at once), then kept under the analysis id until the analysis ends, so a restart or a
 * crash mid-job still finds the file. Writing the bytes into the embedded database instead
 * would hold its single thread, and every other request, for seconds.
 */
export class UploadSpool {
  constructor(readonly dir: string) {}

  /** Writes a stream to a new `.part` file, refusing (and deleting) it past `maxBytes`. */
  async receive(source: Readable, maxBytes: number): Promise<SpooledUpload> {
    await mkdir(this.dir, { recursive: true });
    const file = path.join(this.dir, `${randomBytes(12).toString('hex')}.part`);
    let size = 0;
    const headChunks: Buffer[] = [];
    let headSize = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (size > maxBytes) return callback(new UploadTooLarge(maxBytes));
        if (headSize < HEAD_BYTES) {
          headChunks.push(chunk.subarray(0, HEAD_BYTES - headSize));
          headSize += Math.min(chunk.length, HEAD_BYTES - headSize);
        }
        callback(null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(file, { flags: 'wx' }));
    } catch (error) {
      await unlink(file).catch(() => undefined);
      throw error;
    }
    return { file, size, head: new Uint8Array(Buffer.concat(headChunks)) };
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

  /** The bytes of an analysis in progress; null when the file is gone. */
  async read(analysisId: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(analysisId));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
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
