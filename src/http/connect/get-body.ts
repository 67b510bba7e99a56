import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { bodyTooLarge, isEmptyJson, type BodyCaps } from '../common/body-caps.ts';
import { checkInputText } from '../common/input-text.ts';

/**
 * The JSON body of a GET request. Fastify does not read bodies on GET, but the contract's
 * messaging call is a GET with `{text}` in a JSON body, so the route reads it here, under the
 * same caps and with the same errors as a parsed body. Undefined when there is none.
 */
export async function readGetJsonBody(request: FastifyRequest, caps: BodyCaps): Promise<unknown> {
  const length = request.headers['content-length'];
  if ((length === undefined || length === '0') && request.headers['transfer-encoding'] === undefined) return undefined;
  if (length !== undefined && Number(length) > caps.bytes) throw bodyTooLarge(caps.bytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request.raw) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buffer.length;
    if (total > caps.bytes) throw bodyTooLarge(caps.bytes);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (isEmptyJson(text, caps)) return undefined;
  const type = request.headers['content-type'] ?? 'application/json';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) throw new AppError('unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new AppError('bad_request', 'The body is not valid JSON.');
  }
  checkInputText(body, 'body field');
  return body;
}
