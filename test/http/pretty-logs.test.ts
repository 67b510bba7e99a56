import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildBaseApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext, type AppContext } from '../../src/context.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { useTestService } from '../helpers/service.ts';

/**
 * RAPPORT_LOG_FORMAT=pretty: readable lines for a terminal, made from the lines pino has already
 * redacted, so a secret masked in JSON is masked here too.
 */
const service = useTestService();
let ctx: AppContext;
let app: FastifyInstance;
const lines: string[] = [];
let secret = '';

beforeAll(async () => {
  secret = (await service.token('enterprise')).secret;
  const { logLevel, logFormat } = loadConfig({ LOG_LEVEL: 'info', RAPPORT_LOG_FORMAT: 'pretty' });
  const logger = createLogger(logLevel, { write: (line: string) => void lines.push(line) }, logFormat);
  ctx = createContext({ ...service.ctx.config, logLevel, logFormat }, service.ctx.db, logger, { runJobs: false });
  app = await buildBaseApp(ctx);
});
afterAll(async () => {
  await app.close();
  await ctx.shutdown();
});

describe('RAPPORT_LOG_FORMAT=pretty', () => {
  it('writes one readable line per request, not JSON', async () => {
    lines.length = 0;
    expect((await app.inject({ url: '/healthz?page=2' })).statusCode).toBe(200);
    const request = lines.find((line) => line.includes('/healthz'));
    expect(request, lines.join('')).toBeDefined();
    expect(request).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: request /);
    expect(request).toContain('"url":"/healthz?page=2"');
    expect(() => JSON.parse(request ?? '') as unknown).toThrow();
  });

  it('keeps secrets and personal data out, as the JSON log does', async () => {
    lines.length = 0;
    const email = 'marisol.quintero@example.com';
    const answer = await app.inject({
      url: `/v1/people/${encodeURIComponent(email)}?token=${secret}&email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${secret}`, 'x-request-id': secret },
    });
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    // A header object logged by mistake is masked by the logger's own redaction.
    ctx.logger.info({ headers: { authorization: `Bearer ${secret}`, 'x-org-token': secret } }, 'headers seen');
    const log = lines.join('');
    expect(log).toContain('INFO: request');
    expect(log).toContain('INFO: headers seen');
    expect(log).toContain('[REDACTED]');
    for (const hidden of [secret, secret.slice(0, 20), email, encodeURIComponent(email)]) expect(log).not.toContain(hidden);
  });
});
