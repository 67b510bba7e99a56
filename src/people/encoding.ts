import { createReadStream } from 'node:fs';
import { AppError } from '../shared/errors.ts';

/**
 * The readers decode import files as UTF-8, and a decoder quietly turns every byte it cannot read
 * into "�": a Windows-1252 or Latin-1 export would be stored as `Jos�` with nothing said. So the
 * file is read through once before anything is imported, a chunk at a time (memory stays flat
 * whatever its size), and refused — naming the first bad line — unless it is UTF-8 text.
 */

export interface TextFileCheck {
  /** Nothing in the file but whitespace (and perhaps a byte order mark). */
  empty: boolean;
}

const NEWLINE = 0x0a;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

function utf16Message(file: string): string {
  return `${file} is UTF-16 text, not UTF-8; save it as UTF-8 and import again.`;
}

function notUtf8Message(file: string, line: number): string {
  return `${file} is not UTF-8 text (line ${line}); save it as UTF-8 and import again.`;
}

/**
 * UTF-16 without a byte order mark: plain-ASCII text in UTF-16 has a NUL byte in every second
 * position (odd positions in little-endian, even in big-endian).
 */
function looksLikeUtf16(start: Uint8Array): boolean {
  const sample = start.subarray(0, 512);
  if (sample.length < 4) return false;
  let evenNul = 0;
  let oddNul = 0;
  sample.forEach((byte, i) => {
    if (byte !== 0) return;
    if (i % 2 === 0) evenNul += 1;
    else oddNul += 1;
  });
  const half = sample.length / 2;
  return (oddNul >= half * 0.4 && evenNul === 0) || (evenNul >= half * 0.4 && oddNul === 0);
}

function countNewlines(bytes: Uint8Array, end = bytes.length): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at >= 0 && at < end; at = bytes.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}

/**
 * The bytes at the end of what was read that start a character the next chunk finishes (at most
 * 3). Only called on bytes that decoded without error, so they are a well-formed beginning.
 */
function unfinishedCharacter(bytes: Uint8Array): Uint8Array {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead byte
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? Uint8Array.from(bytes.subarray(bytes.length - back)) : new Uint8Array(0);
  }
  return new Uint8Array(0);
}

/**
 * The line of the first byte that is not UTF-8 in `chunk`, which the streaming decoder refused.
 * A newline byte never occurs inside a UTF-8 character, so each line can be checked on its own;
 * the first line continues the character `carried` over from the previous chunk.
 */
function firstBadLine(carried: Uint8Array, chunk: Uint8Array, lineOfChunk: number): number {
  const bytes = Buffer.concat([carried, chunk]);
  let line = lineOfChunk;
  for (let start = 0; start < bytes.length; line += 1) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline + 1;
    try {
      // The chunk's last line may end in a character the next chunk finishes: `stream` allows it.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, end), { stream: newline < 0 });
    } catch {
      return line;
    }
    start = end;
  }
  return lineOfChunk;
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * Reads `file` through and throws a bad_request AppError naming the first line that is not UTF-8
 * text (a byte that is not UTF-8, or a NUL byte, which no text file holds and the database cannot
 * store), or naming UTF-16. Says whether the file is empty.
 */
export async function checkUtf8File(file: string): Promise<TextFileCheck> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let carried: Uint8Array = new Uint8Array(0);
  // Lines are counted from 1; `line` is the line the next chunk starts on.
  let line = 1;
  let first = true;
  let empty = true;
  for await (const data of createReadStream(file) as AsyncIterable<Buffer>) {
    let chunk: Uint8Array = data;
    if (first) {
      first = false;
      if ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff) || looksLikeUtf16(chunk)) {
        throw new AppError('bad_request', utf16Message(file));
      }
      if (UTF8_BOM.every((byte, i) => chunk[i] === byte)) chunk = chunk.subarray(UTF8_BOM.length);
    }
    if (empty && chunk.some((byte) => !isWhitespace(byte))) empty = false;
    const nul = chunk.indexOf(0);
    let bad = nul < 0 ? Number.POSITIVE_INFINITY : line + countNewlines(chunk, nul);
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      bad = Math.min(bad, firstBadLine(carried, chunk, line));
    }
    if (Number.isFinite(bad)) throw new AppError('bad_request', notUtf8Message(file, bad));
    // A chunk of fewer than 3 bytes may finish no character the previous one began.
    carried = unfinishedCharacter(chunk.length >= 3 ? chunk : Buffer.concat([carried, chunk]));
    line += countNewlines(chunk);
  }
  try {
    decoder.decode();
  } catch {
    // The file ends in the middle of a character: its last line is the bad one.
    throw new AppError('bad_request', notUtf8Message(file, line));
  }
  return { empty };
}
