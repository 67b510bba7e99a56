import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { HAVE_BROWSER, launchChromium } from '../helpers/browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPeople } from '../../src/people/import.ts';
import { OUTGOING_TEXT } from '../fixtures/texts.ts';
import { createTestService, type TestService } from '../helpers/service.ts';

let service: TestService;
let browser: Browser;
let dir: string;
let pageUrl: string;

describe.skipIf(!HAVE_BROWSER)('the profile page in a browser', () => {
  beforeAll(async () => {
    service = await createTestService();
    dir = mkdtempSync(path.join(tmpdir(), 'rapport-browser-'));
    const file = path.join(dir, 'people.jsonl');
    writeFileSync(file, JSON.stringify({ first_name: 'Imani', last_name: 'Browsertest', email: 'imani@example.org', company_name: 'Example Works', texts: [{ type: 'various', text: OUTGOING_TEXT }] }));
    await importPeople(service.ctx, file);
    const address = await service.base.listen({ host: '127.0.0.1', port: 0 });
    const token = await service.token('enterprise');
    const response = await fetch(`${address}/v1/profiles?email=imani@example.org`, { headers: { authorization: `Bearer ${token.secret}` } });
    pageUrl = ((await response.json()) as { data: { url: string } }).data.url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders name, type, map and advice, and the map image loads', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(pageUrl);
    await expect(page.locator('h1').innerText()).resolves.toContain('Imani Browsertest');
    const body = await page.locator('body').innerText();
    expect(body).toMatch(/^DO$/im);
    expect(body).toMatch(/Communicating/i);
    const mapLoaded = await page.locator('img[src*="/images/disc-map/"]').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    expect(mapLoaded).toBeGreaterThan(100);
    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(10_000);
    writeFileSync(path.join(tmpdir(), 'rapport-profile-page.png'), shot);
  });
});
