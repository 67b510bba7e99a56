import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';

const CLIENT_DIR = fileURLToPath(new URL('../../clients/typescript/', import.meta.url));
const out = mkdtempSync(path.join(tmpdir(), 'rapport-client-pack-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('@rapport/client as a package', () => {
  it('packs with npm (built by its prepack), and the built package verifies a webhook', { timeout: 180_000 }, async () => {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: CLIENT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Array<{ name: string; filename: string; files: { path: string }[] }>;
    const [tarball] = packed;
    expect(tarball?.name).toBe('@rapport/client');
    const files = (tarball?.files ?? []).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/connect.d.ts']));
    expect(files.some((f) => f.startsWith('src/'))).toBe(false);

    const built = (await import(path.join(CLIENT_DIR, 'dist/index.js'))) as typeof import('../../clients/typescript/src/index.ts');
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { endpoint_id: 'ep_1', message: 'hi' } });
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(secret).sign('msg_1', new Date(), body) };
    expect(built.verifyWebhook(secret, body, headers)).toMatchObject({ id: 'msg_1', type: 'webhook.test' });
    expect(typeof built.connectClient).toBe('function');
  });
});
