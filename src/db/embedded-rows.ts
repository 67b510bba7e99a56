import { protocol, type messages } from '@electric-sql/pglite';
import type { Row } from './client.ts';

/** A column as a statement's description gives it, with the parser its type reads with. */
export interface RowColumn {
  name: string;
  parse: ((text: string) => unknown) | null;
}

const DATA_ROW = 0x44; // 'D'
const ERROR_RESPONSE = 0x45; // 'E'
/** A message's type byte and its length word (the length counts itself, not the type). */
const HEADER_BYTES = 5;

/**
 * Reads the rows of one statement's answer from the wire protocol's bytes as the embedded
 * database writes them, one chunk at a time (pglite-internals.ts, `streamProtocol`).
 *
 * Why not PGlite's own parser: it copies every chunk twice (into its result buffer, and into
 * its parser's), makes an object for each message with an array of each row's fields, and only
 * then are the fields parsed by type: ~11 % of the service's main thread under name-search
 * load. Here a DataRow's fields are decoded straight from the chunk into the row; every other
 * message is skipped, except an ErrorResponse, which PGlite's own parser reads, so the error
 * thrown is the one `query()` would throw. A message cut across chunks is kept (copied) until
 * the rest of it comes.
 */
export class RowReader<T extends Row> {
  readonly rows: T[] = [];
  /** The first error the database answered with (later ones follow from it, as in PGlite). */
  error: messages.DatabaseError | null = null;
  /** A message cut across chunks: its pieces so far (copies), and how long it is in all. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingNeeds = HEADER_BYTES;

  constructor(private readonly columns: readonly RowColumn[]) {}

  /** Takes a chunk; it may be a view of the database's memory, so nothing is kept of it but copies. */
  read(chunk: Uint8Array): void {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending.length > 0) {
      // A long message (a big JSON value) comes in many chunks: joined once, when it is whole.
      if (this.pendingBytes + bytes.length < this.pendingNeeds) return this.keep(bytes);
      bytes = Buffer.concat([...this.pending, bytes]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    let at = 0;
    while (at + HEADER_BYTES <= bytes.length) {
      const end = at + 1 + bytes.readInt32BE(at + 1);
      if (end > bytes.length) break;
      const type = bytes[at];
      if (type === DATA_ROW) this.rows.push(this.row(bytes, at + HEADER_BYTES));
      else if (type === ERROR_RESPONSE && !this.error) this.error = errorOf(bytes.subarray(at, end));
      at = end;
    }
    if (at < bytes.length) this.keep(bytes.subarray(at));
  }

  private keep(piece: Buffer): void {
    if (this.pending.length === 0) this.pendingNeeds = piece.length >= HEADER_BYTES ? 1 + piece.readInt32BE(1) : HEADER_BYTES;
    this.pending.push(Buffer.from(piece));
    this.pendingBytes += piece.length;
  }

  /** Throws the database's error, as PGlite's execProtocol does, or a cut-off answer's. */
  finish(): T[] {
    if (this.error) throw this.error;
    if (this.pendingBytes > 0) throw new Error(`The embedded database's answer ended inside a message (${this.pendingBytes} bytes left).`);
    return this.rows;
  }

  private row(bytes: Buffer, start: number): T {
    const count = bytes.readInt16BE(start);
    let at = start + 2;
    const row: Row = {};
    for (let i = 0; i < count; i += 1) {
      const length = bytes.readInt32BE(at);
      at += 4;
      const column = this.columns[i];
      const name = column ? column.name : String(i);
      if (length < 0) {
        row[name] = null;
        continue;
      }
      const text = bytes.toString('utf8', at, at + length);
      at += length;
      row[name] = column?.parse ? column.parse(text) : text;
    }
    return row as T;
  }
}

/** The error PGlite's own parser makes of one ErrorResponse message (the same class and fields). */
function errorOf(message: Buffer): messages.DatabaseError {
  let error: messages.DatabaseError | null = null;
  new protocol.Parser().parse(Buffer.from(message), (parsed) => {
    if (parsed.name === 'error') error = parsed as messages.DatabaseError;
  });
  return error ?? new protocol.messages.DatabaseError('The embedded database answered an error that could not be read.', message.length, 'error');
}
