import { AppError, isAppError } from '../../shared/errors.ts';

/**
 * Runs a read of a multipart body, turning the parser's complaints about the body itself
 * (no boundary in the Content-Type, a part cut off before its end, a malformed part header)
 * into a 400. They surface as plain errors without a status, which would otherwise read as
 * a fault of the service. Limits (413) and our own errors pass through unchanged.
 */
export async function readingMultipart<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
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
