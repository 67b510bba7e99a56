import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HAVE_BROWSER, launchChromium } from '../helpers/browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestionnaire } from '../../src/assessment/questionnaire.ts';
import { Browser as FormClient, newToken, signUpByMail, takeTest } from '../helpers/assessment.ts';
import { freePort, REPO_ROOT } from '../helpers/process.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

/** Looked at by a person: the test, the result and the dashboard at phone and desktop widths. */
const SHOTS = path.join(REPO_ROOT, 'test-output', 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let smtp: SmtpInbox;
let service: TestService;
let browser: Browser;
let base: string;

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(DESKTOP);
}

/** Presses Tab until the focused element matches, as a keyboard user would; fails after `max` presses. */
async function tabTo(page: Page, selector: string, max = 8): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Answers one question with the keyboard: Space picks the first option, arrows move to the others. */
async function answer(page: Page, itemId: string, value: number): Promise<void> {
  await tabTo(page, `input[type=radio][name="q.${itemId}"]`);
  if (value === 1) await page.keyboard.press('Space');
  else for (let i = 1; i < value; i += 1) await page.keyboard.press('ArrowRight');
  expect(await page.locator(`input[name="q.${itemId}"]:checked`).getAttribute('value')).toBe(String(value));
}

describe.skipIf(!HAVE_BROWSER)('group B in a browser', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The service mails its links (sign-up, result confirmation) to a real SMTP server on loopback.
    smtp = await startSmtp();
    const port = await freePort();
    service = await createTestService({ SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@rapport.test', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    base = await service.base.listen({ host: '127.0.0.1', port });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await smtp?.close();
  });

  it('sign up by mail, paste the button, take the test by keyboard, see the result, confirm it, find the person', { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${base}/signup`);
    await page.fill('#email', 'browser.owner@example.com');
    await page.fill('#password', 'a very good password');
    await Promise.all([page.waitForLoadState(), page.click('button[type=submit]')]);
    expect(await page.locator('[role=status]').innerText()).toContain('we are mailing it a link');
    // The account is made by the link in the mail: opening it asks, Confirm makes it and logs in.
    await page.goto(confirmLinkIn(await smtp.mailTo('browser.owner@example.com')));
    await Promise.all([page.waitForURL(/\/dashboard$/), page.click('button[type=submit]')]);
    await Promise.all([page.waitForLoadState(), page.click('text=Create token')]);
    const token = (await page.locator('#new-token').innerText()).trim();
    expect(token).toMatch(/^rpa_/);
    await page.fill('#role', 'Support Lead');
    await page.fill('#posting', 'https://jobs.example.com/support-lead');
    await Promise.all([page.waitForURL(/created=hiring/), page.click('text=Create hiring link')]);
    const snippet = await page.locator('#button-code').inputValue();
    expect(snippet).toContain('Take Personality Test');

    // The user's own app: a plain page with the pasted button, the person's email URL-encoded into it.
    const email = 'kim+browser@example.org';
    const app = await context.newPage();
    await app.setContent(`<!DOCTYPE html><html><body><h1>Acme app</h1>${snippet.replace('ENCODED_EMAIL', encodeURIComponent(email))}</body></html>`);
    await tabTo(app, 'a');
    const [test] = await Promise.all([context.waitForEvent('page'), app.keyboard.press('Enter')]);
    await test.waitForLoadState();
    expect(test.url()).toContain(`api_user_email=${encodeURIComponent(email)}`);
    expect(await test.locator('#email').count()).toBe(0);
    await test.setViewportSize(DESKTOP);
    await shoot(test, 'test-start');

    const q = loadQuestionnaire();
    const value = (index: number) => ((index * 3 + 1) % 5) + 1;
    let index = 0;
    for (const [screenIndex, ids] of q.screens.entries()) {
      for (const id of ids) await answer(test, id, value(index++));
      if (screenIndex === 0) {
        // A reload (or a phone that slept) keeps the answers and the place.
        await test.reload();
        await expect(test.locator('#progress-text').innerText()).resolves.toBe(`${ids.length} of ${q.items.length} answered`);
        await expect(test.locator(`input[name="q.${ids[0]}"]:checked`).getAttribute('value')).resolves.toBe(String(value(0)));
      }
      if (screenIndex === 1) await shoot(test, 'test-progress');
      // Every question screen ends with Next; the last one leads to the "about you" screen.
      await tabTo(test, '[data-next]');
      await test.keyboard.press('Enter');
      expect(await test.evaluate<string>('document.activeElement?.tagName')).toBe('H2');
    }
    await tabTo(test, '#first_name');
    await test.keyboard.type('Kim <i>');
    await tabTo(test, '#last_name');
    await test.keyboard.type('Keys');
    await shoot(test, 'test-details');
    await tabTo(test, 'button[type=submit]');
    await Promise.all([test.waitForURL(/\/r\//), test.keyboard.press('Enter')]);

    const body = await test.locator('body').innerText();
    expect(body).toContain('Kim <i>, here is your personality style');
    expect(body).toMatch(/Archetype/);
    expect(body).toMatch(/DISC type/);
    const mapWidth = await test.locator('img[src*="/images/disc-map/"]').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
    expect(mapWidth).toBeGreaterThan(100);
    expect(await test.locator('text=Delete my result').count()).toBe(1);
    expect(body).toContain('Confirm your address to make this your profile');
    expect(await test.locator('text=See your full profile').count()).toBe(0);
    await shoot(test, 'result');
    // Answers saved while taking the test are cleared once it is done.
    expect(await test.evaluate<number>("Object.keys(localStorage).filter((k) => k.startsWith('rapport-test:')).length")).toBe(0);

    // The taker confirms the address from the mail: the result becomes their profile.
    await test.goto(confirmLinkIn(await smtp.mailTo(email)));
    await shoot(test, 'confirm');
    await Promise.all([test.waitForLoadState(), test.click('button[type=submit]')]);
    expect(await test.locator('h1').innerText()).toBe('Your result is your profile now');

    // The full profile: the DISC bars say what they are, and what the test measured is shown apart.
    await Promise.all([test.waitForURL(/\/p\//), test.locator('text=See your profile').click()]);
    const profile = await test.locator('body').innerText();
    expect(profile).toMatch(/Measured by the test/i);
    expect(profile).toMatch(/not trait scores/);
    await shoot(test, 'profile');

    await page.reload();
    expect(await page.locator('body').innerText()).toContain(email);
    expect(await page.locator('a[href*="/h/"]').count()).toBe(1);
    await shoot(page, 'dashboard');

    // The user's token finds the person; through a hiring link, with the hiring entry.
    const found = await fetch(`${base}/v1/personality_assessments/find?token=${token}&email=${encodeURIComponent(email)}`);
    expect(found.status).toBe(200);
    expect(((await found.json()) as { first_name: string }).first_name).toBe('Kim <i>');
    const hiringPath = new URL(await page.locator('a[href*="/h/"]').first().getAttribute('href') ?? '').pathname;
    expect((await takeTest(service.base, hiringPath, { email: 'applicant@example.org' }, base)).statusCode).toBe(303);
    const hired = await fetch(`${base}/v1/personality_assessments/find?token=${token}&email=applicant%40example.org&options[hiring]=true`);
    expect(((await hired.json()) as { hiring: unknown }).hiring).toEqual([{ url: 'https://jobs.example.com/support-lead', role: 'Support Lead' }]);

    // Another user's token does not.
    const stranger = new FormClient(service.base, base);
    await signUpByMail(stranger, smtp, 'stranger@example.com');
    const strangerToken = await newToken(stranger);
    expect((await fetch(`${base}/v1/personality_assessments/find?token=${strangerToken}&email=${encodeURIComponent(email)}`)).status).toBe(404);
    await context.close();
  });
});
