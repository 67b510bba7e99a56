import { AppError, isAppError } from '../../shared/errors.ts';
import { sizeText } from '../../shared/size.ts';

/** What a multipart body may hold on one route (busboy's limits, checked as the parts arrive). */
export interface MultipartCaps {
  /** Parts of any kind, fields and files together. */
  parts: number;
  files: number;
  fields: number;
  /** Bytes of one file part. */
  fileSize: number;
  /** Bytes of one field's value. */
  fieldSize: number;
  /** What the route reads, for the refusal: 'one file part named "file"'. */
  reads: string;
}

const LIMIT_CODES: Record<string, { what: string; cap: (caps: MultipartCaps) => number }> = {
  FST_PARTS_LIMIT: { what: 'parts', cap: (caps) => caps.parts },
  FST_FILES_LIMIT: { what: 'file parts', cap: (caps) => caps.files },
  FST_FIELDS_LIMIT: { what: 'fields', cap: (caps) => caps.fields },
};

/**
 * A multipart body with more parts, files or fields than the route reads: its own 413, saying
 * which (before, 11 small parts were told the body was "larger than 12 MB"). Without the route's
 * caps (an error that reached the service's handler directly) the count goes unsaid.
 */
export function multipartLimitError(error: unknown, caps?: MultipartCaps): AppError | null {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const limit = LIMIT_CODES[code];
  if (!limit) return null;
  const said = caps ? `more than ${limit.cap(caps)} ${limit.what}; this endpoint reads ${caps.reads}` : `more ${limit.what} than this endpoint reads`;
  return new AppError('payload_too_large', `The multipart body has ${said}.`, { cause: error });
}

/** The same caps as the options @fastify/multipart takes per request. */
export function busboyLimits(caps: MultipartCaps) {
  return { parts: caps.parts, files: caps.files, fields: caps.fields, fileSize: caps.fileSize, fieldSize: caps.fieldSize };
}

/** A field value cut at `fieldSize`: refused rather than read short. */
export function fieldTooLarge(caps: MultipartCaps, name: string): AppError {
  return new AppError('payload_too_large', `The multipart field "${name}" is larger than this endpoint takes (${sizeText(caps.fieldSize)}).`);
}

/**
 * Runs a read of a multipart body, turning the parser's complaints about the body itself
 * (no boundary in the Content-Type, a part cut off before its end, a malformed part header)
 * into a 400, and its limits into their own 413. They surface as plain errors without a status,
 * which would otherwise read as a fault of the service. Our own errors pass through unchanged.
 */
export async function readingMultipart<T>(read: () => Promise<T>, caps?: MultipartCaps): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const limit = multipartLimitError(error, caps);
    if (limit) throw limit;
    if (isAppError(error) || !(error instanceof Error) || hasStatus(error) || isProgrammingError(error)) throw error;
    throw new AppError('bad_request', `The multipart body could not be read (${error.message}); send a complete multipart/form-data body with its boundary.`, { cause: error });
  }
}

/** A fault in our own code stays a 500, however it surfaced. */
function isProgrammingError(error: Error): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
}

function hasStatus(error: Error): boolean {
  return 'statusCode' in error && typeof error.statusCode === 'number';
}
