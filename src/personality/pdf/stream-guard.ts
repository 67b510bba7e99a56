/**
 * Refuses decompression bombs before pdf.js sees them. pdf.js inflates a content stream
 * into one growing Uint8Array that lives outside the V8 heap, so the worker's
 * resourceLimits do not cap it: a 1 MB upload can inflate to gigabytes. Here every zlib
 * stream in the file is inflated once, natively and in 64 KB chunks without keeping the
 * output, and the total is compared with a budget.
 */
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createInflate, inflateSync } from 'node:zlib';

// A filter chain such as [/FlateDecode /FlateDecode] hides a bomb one layer down.
const MAX_LAYERS = 3;
const CHUNK = 64 * 1024;

/** True when the zlib streams of the file inflate to more than `budget` bytes in total. */
export async function decodedSizeExceeds(bytes: Uint8Array, budget: number): Promise<boolean> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (const data of zlibStreams(buf)) {
    total += await inflatedSize(data, budget - total);
    if (total > budget) return true;
  }
  return false;
}

/**
 * The data of each stream that starts with a zlib header. The end is the next "endstream"
 * rather than /Length, which may be an indirect reference or a lie; bytes after the zlib
 * end are ignored by inflate.
 */
function* zlibStreams(buf: Buffer): Generator<Buffer> {
  let pos = 0;
  for (;;) {
    const at = buf.indexOf('stream', pos, 'latin1');
    if (at < 0) return;
    pos = at + 6;
    if (buf[at - 1] === 0x64 /* d: "endstream" */) continue;
    if (buf[pos] === 0x0d) pos++;
    if (buf[pos] === 0x0a) pos++;
    if (!looksLikeZlib(buf, pos)) continue;
    const end = buf.indexOf('endstream', pos, 'latin1');
    const stop = end < 0 ? buf.length : end;
    yield buf.subarray(pos, stop);
    pos = stop;
  }
}

function looksLikeZlib(buf: Uint8Array, at: number): boolean {
  const cmf = buf[at];
  const flg = buf[at + 1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/**
 * Inflated size of one stream, summed over its layers (pdf.js holds every layer's output),
 * counting up to just past `limit`. Output that arrives before a corrupt or missing end
 * still counts: pdf.js keeps it too.
 */
async function inflatedSize(data: Buffer, limit: number): Promise<number> {
  let size = 0;
  const count = (): Transform =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > limit ? new Error('over budget') : null, chunk);
      },
    });
  const stages: NodeJS.ReadWriteStream[] = [];
  for (let i = zlibLayers(data); i > 0; i--) stages.push(createInflate({ chunkSize: CHUNK }), count());
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  // Errors (corrupt data, over budget) only end the count; `size` holds what was seen.
  await pipeline([Readable.from([data]), ...stages, sink]).catch(() => undefined);
  return size;
}

/** How many zlib layers are nested, peeking at a small inflated prefix of each. */
function zlibLayers(data: Buffer): number {
  let layers = 0;
  let head: Buffer = data;
  while (layers < MAX_LAYERS && looksLikeZlib(head, 0)) {
    layers++;
    try {
      head = inflateSync(head.subarray(0, 1024), { finishFlush: constants.Z_SYNC_FLUSH });
    } catch {
      break;
    }
  }
  return Math.max(layers, 1);
}
