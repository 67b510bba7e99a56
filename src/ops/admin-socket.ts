import { createServer, type IncomingMessage, type Server } from 'node:http';
import { chmodSync, rmSync } from 'node:fs';
import type { AppContext } from '../context.ts';
import { isAppError } from '../shared/errors.ts';
import { runVerb } from './verbs.ts';

const MAX_ARGS_BYTES = 1024 * 1024;

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_ARGS_BYTES) throw new Error('arguments too large');
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text.length === 0 ? {} : JSON.parse(text);
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
        if (!isAppError(error)) ctx.logger.error({ err: error, verb }, 'admin command failed');
        send({ error: isAppError(error) ? { code: error.code, message: error.message } : { code: 'internal', message: String(error) } });
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
