import { createServer, type IncomingMessage, type Server } from 'node:http';
import { chmodSync, rmSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { AppError, isAppError } from '../shared/errors.ts';
import { sizeText } from '../shared/size.ts';
import { runVerb } from './verbs.ts';

const MAX_ARGS_BYTES = 1024 * 1024;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_ARGS_BYTES) throw new AppError('payload_too_large', `The arguments are larger than ${sizeText(MAX_ARGS_BYTES)}.`);
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return text.length === 0 ? {} : JSON.parse(text);
  } catch {
    throw new AppError('bad_request', 'The arguments are not valid JSON.');
  }
}

/**
 * The operator's door into a running service: a Unix socket inside the data directory (only
 * users who can read the data can connect). Each POST /rpc/<verb> answers with NDJSON lines:
 * progress events, then one `result` or `error` line.
 */
export async function listenAdminSocket(ctx: AppContext, socketPath: string): Promise<Server> {
  rmSync(socketPath, { force: true });
  const server = createServer((request, response) => {
    const match = /^\/rpc\/([\w.-]+)$/.exec(request.url ?? '');
    if (request.method !== 'POST' || !match?.[1]) {
      response.writeHead(404).end();
      return;
    }
    const verb = match[1];
    response.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const send = (line: Record<string, unknown>) => response.write(`${JSON.stringify(line)}\n`);
    readJson(request)
      .then((args) => runVerb(ctx, verb, args, (event) => send({ progress: event })))
      .then((result) => send({ result: result ?? null }))
      .catch((error: unknown) => {
        if (!isAppError(error)) ctx.logger.error({ verb, err: error }, 'admin command failed');
        const message = error instanceof Error ? error.message : String(error);
        send({ error: isAppError(error) ? { code: error.code, message: error.message } : { code: 'internal', message } });
      })
      .finally(() => response.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return server;
}
