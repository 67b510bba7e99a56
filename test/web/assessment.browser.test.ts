import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestionnaire } from '../../src/assessment/questionnaire.ts';
import { NoMailer } from '../../src/mail/mailer.ts';
import { submitTest } from '../../src/takers/submit.ts';
import { STANDING_MINIMUM } from '../../src/takers/standing.ts';
import { HAVE_BROWSER, launchChromium } from '../helpers/browser.ts';
import { Browser as FormClient, newToken, signUpByMail, takeTest } from '../helpers/assessment.ts';
import { axeViolations, DESKTOP, focused, PHONE, tabTo, visit } from '../helpers/pages.ts';
import { freePort } from '../helpers/process.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

let smtp: SmtpInbox;
let service: TestService;
let browser: Browser;
let base: string;

/** Answers one question with the keyboard: Space picks the first option, arrows move to the others. */
async function answer(page: Page, itemId: string, value: number): Promise<void> {
  await tabTo(page, `input[type=radio][name="q.${itemId}"]`);
  if (value === 1) await page.keyboard.press('Space');
  else for (let i = 1; i < value; i += 1) await page.keyboard.press('ArrowRight');
  expect(await page.locator(`input[name="q.${itemId}"]:checked`).getAttribute('value')).toBe(String(value));
}

async function enter(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

/** Others who took the test on this service, so a result shows where it stands among them. */
async function seedTakers(userId: string, testLinkId: string, count: number): Promise<void> {
  const q = loadQuestionnaire();
  const deps = { db: service.ctx.db, mailer: new NoMailer(), publicBaseUrl: null, resultKey: async (id: string) => `key-${id}` };
  for (let n = 0; n < count; n += 1) {
    const answers = Object.fromEntries(q.items.map((item, j) => [item.id, 1 + ((j * 7 + n * 13 + ((j * n) % 11)) % 5)]));
    await submitTest(deps, q, { userId, hiringLinkId: null, key: `t:${testLinkId}` }, {
      submissionId: `seeded-taker-${n}-xxxxxxxxxxxx`, email: `seeded${n}@example.org`, firstName: 'Seeded', lastName: String(n), answers, network: `10.0.${n}.0/24`, consented: true,
    });
  }
}

describe.skipIf(!HAVE_BROWSER)('group B in a browser', () => {
  beforeAll(async () => {
    // The service mails its links (sign-up, result confirmation) to a real SMTP server on loopback.
    smtp = await startSmtp();
    const port = await freePort();
    // No event-loop load shedding: this service shares its loop with the test's own work (seeding
    // takers, reading the downloaded PDF), which on a loaded machine could make it answer a form
    // with 503 and the page wait for a link that never comes.
    service = await createTestService({
      SMTP_URL: smtp.url, SMTP_FROM: 'no-reply@rapport.test', PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, RAPPORT_SHED_EVENT_LOOP_DELAY_MS: '0',
    });
    base = await service.base.listen({ host: '127.0.0.1', port });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await smtp?.close();
  });

  it('the test by keyboard, a result that is the taker\'s, and a dashboard that serves a team', { timeout: 420_000 }, async () => {
    const problems: string[] = [];
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}/signup`);
    await page.fill('#email', 'browser.owner@example.com');
    await page.fill('#password', 'a very good password');
    await Promise.all([page.waitForLoadState(), page.click('button[type=submit]')]);
    await page.goto(confirmLinkIn(await smtp.mailTo('browser.owner@example.com')));
    await Promise.all([page.waitForURL(/\/dashboard$/), page.click('button[type=submit]')]);
    await page.fill('#organisation', 'Acme Outfitters');
    await Promise.all([page.waitForURL(/created=organisation/), page.click('text=Save name')]);
    await Promise.all([page.waitForLoadState(), page.click('text=Create token')]);
    const token = (await page.locator('#new-token').innerText()).trim();
    expect(token).toMatch(/^rpa_/);
    await page.fill('#role', 'Support Lead');
    await page.fill('#posting', 'https://jobs.example.com/support-lead');
    await Promise.all([page.waitForURL(/created=hiring/), page.click('text=Create hiring link')]);
    const snippet = await page.locator('#button-code').inputValue();
    const user = (await service.ctx.db.query<{ id: string; test_link_id: string }>("SELECT id, test_link_id FROM users WHERE email = 'browser.owner@example.com'"))[0];
    await seedTakers(user?.id ?? '', user?.test_link_id ?? '', STANDING_MINIMUM);

    // The user's own app: a plain page with the pasted button, the person's email URL-encoded into it.
    const email = 'kim+browser@example.org';
    const app = await context.newPage();
    await app.setContent(`<!DOCTYPE html><html><body><h1>Acme app</h1>${snippet.replace('ENCODED_EMAIL', encodeURIComponent(email))}</body></html>`);
    await tabTo(app, 'a');
    const [test] = await Promise.all([context.waitForEvent('page'), app.keyboard.press('Enter')]);
    await test.waitForLoadState();
    await test.setViewportSize(DESKTOP);
    // The first screen: who is asking, what the taker gets, the address it is filed under, and a box to agree.
    const intro = await test.locator('[data-intro]').innerText();
    expect(intro).toContain('Acme Outfitters asked you to take this test.');
    expect(intro).toContain(`Your result is filed under ${email}`);
    expect(intro).toMatch(/48 short statements, about seven minutes/);
    expect(await test.locator('fieldset.item:visible').count()).toBe(0);
    await tabTo(test, '[data-next]');
    await test.keyboard.press('Enter');
    // Not agreed yet: said in words, and the box has the focus.
    expect(await test.locator('#consent-error').isVisible()).toBe(true);
    expect(await test.locator('#consent-error').getAttribute('role')).toBe('alert');
    expect(await focused(test)).toBe('input#consent[consent]');
    problems.push(...(await visit(test, 'test-intro')));
    await test.keyboard.press('Space');
    expect(await test.locator('#consent-error').isVisible()).toBe(false);
    await tabTo(test, '[data-intro] [data-next]');
    await test.keyboard.press('Enter');
    expect(await test.evaluate<string>('document.activeElement?.tagName')).toBe('H2');

    const q = loadQuestionnaire();
    const value = (index: number) => ((index * 3 + 1) % 5) + 1;
    let index = 0;
    for (const [screenIndex, ids] of q.screens.entries()) {
      const screen = test.locator(`[data-screen="${screenIndex + 1}"]`);
      if (screenIndex === 0) {
        // Five of six answered, then Next: the gap is said in words and the missing statement has the focus, visibly.
        for (const id of ids.slice(0, -1)) await answer(test, id, value(index++));
        await tabTo(test, '[data-screen="1"] [data-next]');
        await test.keyboard.press('Enter');
        const alert = screen.locator('[data-screen-error]');
        expect(await alert.innerText()).toBe('One statement on this page has no answer yet. Choose an answer for each to go on.');
        expect(await alert.getAttribute('role')).toBe('alert');
        expect(await focused(test)).toBe(`input[q.${ids.at(-1) ?? ''}]`);
        expect(await screen.locator('.item-error').innerText()).toBe('Choose an answer for this statement.');
        const ring = await test.evaluate<string>('getComputedStyle(document.activeElement.closest(\'label\')).outlineStyle');
        expect(ring).toBe('solid');
        problems.push(...(await visit(test, 'test-missing-answer')));
        await test.keyboard.press('Shift+Tab');
        await answer(test, ids.at(-1) ?? '', value(index++));
        expect(await alert.isVisible()).toBe(false);
        // A reload (or a phone that slept) keeps the answers and the place.
        await test.reload();
        await expect(test.locator('#progress-text').innerText()).resolves.toBe(`${ids.length} of ${q.items.length} answered`);
        await expect(test.locator(`input[name="q.${ids[0]}"]:checked`).getAttribute('value')).resolves.toBe(String(value(0)));
      } else {
        for (const id of ids) await answer(test, id, value(index++));
      }
      if (screenIndex === 1) {
        problems.push(...(await visit(test, 'test-screen')));
        // On a phone a screen of six statements is about a phone's height, not three.
        await test.setViewportSize(PHONE);
        expect(await screen.evaluate((e) => (e as unknown as { offsetHeight: number }).offsetHeight)).toBeLessThan(1300);
        await test.setViewportSize(DESKTOP);
      }
      await tabTo(test, `[data-screen="${screenIndex + 1}"] [data-next]`);
      await test.keyboard.press('Enter');
      expect(await test.evaluate<string>('document.activeElement?.tagName')).toBe('H2');
    }
    await tabTo(test, '#first_name');
    await test.keyboard.type('Kim <i>');
    await tabTo(test, '#last_name');
    await test.keyboard.type('Keys');
    problems.push(...(await visit(test, 'test-details')));
    await tabTo(test, 'button[type=submit]');
    await Promise.all([test.waitForURL(/\/r\//), test.keyboard.press('Enter')]);
    const resultUrl = test.url();

    // The result, written to the taker.
    const body = await test.locator('main').innerText();
    expect(body).toMatch(/^Kim <i>, your personality style: /m);
    expect(body).toMatch(/What \w+ and \w+ mean/);
    for (const heading of ['Your strengths', 'Your blind spots', 'How you tend to communicate', 'How you tend to work', 'What drains you', 'Your style at a glance', 'Thoroughness', 'Openness']) expect(body).toContain(heading);
    expect(body).toMatch(new RegExp(`Higher than \\d+ % of the ${STANDING_MINIMUM} other people who took this test here`));
    expect(body).toContain('Confirm your address to make this your profile');
    expect(await test.locator('img[src*="/images/disc-map/"]').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
    problems.push(...(await visit(test, 'result')));
    // Answers saved while taking the test are cleared once it is done; only its attempt id stays.
    const saved = await test.evaluate<string[]>("Object.keys(localStorage).filter((k) => k.startsWith('rapport-test:')).map((k) => localStorage.getItem(k))");
    expect(saved.every((s) => !s.includes('"answers"'))).toBe(true);

    // Back, and send again: the same result, not a second one.
    await test.goBack();
    await test.locator('[data-sent-notice]').waitFor({ state: 'visible' });
    await expect.poll(() => test.locator('#progress-text').textContent()).toBe(`${q.items.length} of ${q.items.length} answered`);
    problems.push(...(await visit(test, 'test-sent-already')));
    if (!(await test.locator('#consent').isChecked())) await test.locator('#consent').check();
    await Promise.all([test.waitForURL(/\/r\//), test.evaluate("document.getElementById('test-form').requestSubmit()")]);
    expect(test.url().split('?')[0]).toBe(resultUrl.split('?')[0]);
    expect(await test.locator('main [role=status]').first().innerText()).toContain('You sent these answers before');
    expect((await service.ctx.db.query("SELECT id FROM assessments WHERE email_normalized = 'kim+browser@example.org'")).length).toBe(1);

    // The PDF: the same result, to keep.
    await tabTo(test, 'a[href*="/report.pdf"]', 80);
    const [download] = await Promise.all([test.waitForEvent('download'), test.keyboard.press('Enter')]);
    const pdf = readFileSync(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await extractText(new Uint8Array(pdf), { mergePages: true })).text.replace(/\s+/g, ' ');
    expect(text).toContain('Kim <i>, your personality style');
    expect(text).toContain('Your strengths');
    expect(text).toContain((await test.locator('.list-strengths li').first().innerText()).trim());

    // A private link: made, copied, read by someone else, turned off.
    await tabTo(test, 'form[action$="/share"] button', 80);
    await enter(test);
    const shared = await test.locator('#share-link').inputValue();
    expect(shared).toMatch(/\/s\/s_/);
    await tabTo(test, 'button[data-copy="share-link"]', 10);
    await test.keyboard.press('Enter');
    await expect.poll(() => test.locator('#share-link-status').innerText()).toBe('Copied.');
    expect(await test.evaluate('navigator.clipboard.readText()')).toBe(shared);
    problems.push(...(await visit(test, 'result-keep')));
    const reader = await browser.newPage({ viewport: DESKTOP });
    await reader.goto(shared);
    const readerBody = await reader.locator('main').innerText();
    // The eyebrow is set in capitals by its style; the words are what matter.
    expect(readerBody).toMatch(/A result shared with you by Kim <i>/i);
    expect(readerBody).toContain('Your strengths');
    expect(await reader.locator('a[href*="/delete"], form[action*="/share"]').count()).toBe(0);
    problems.push(...(await visit(reader, 'result-shared')));
    await tabTo(test, 'form[action$="/share/off"] button', 80);
    await enter(test);
    expect((await reader.reload())?.status()).toBe(404);
    await reader.close();

    // The mail holds the result page's link (with its key), and the confirmation link.
    const mail = await smtp.mailTo(email);
    expect(mail.text).toContain(resultUrl.split('#')[0]?.split('&again')[0] ?? '');
    await test.goto(confirmLinkIn(mail));
    problems.push(...(await visit(test, 'confirm-result')));
    await tabTo(test, 'main button[type=submit]');
    await enter(test);
    expect(await test.locator('h1').innerText()).toBe('Your result is your profile now');
    await tabTo(test, 'main a.button');
    await enter(test);
    const profile = await test.locator('body').innerText();
    expect(profile).toMatch(/Measured by the test/i);
    problems.push(...(await visit(test, 'profile')));

    // The dashboard: searched, exported, and a taker removed, by keyboard.
    await page.goto(`${base}/dashboard`);
    expect(await page.locator('main').innerText()).toContain(email);
    problems.push(...(await visit(page, 'dashboard')));
    await tabTo(page, '#q', 40);
    await page.keyboard.type('KIM+');
    await enter(page);
    const rows = await page.locator('section[aria-labelledby="takers-title"] tbody tr').allInnerTexts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(email);
    problems.push(...(await visit(page, 'dashboard-search')));
    await tabTo(page, 'a[href^="/dashboard/takers.csv"]', 20);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const csv = readFileSync(await csvDownload.path(), 'utf8').replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(csv[0]).toBe('taken_at,first_name,last_name,email,disc_type,archetype,hiring_role,profile_url');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(`Kim <i>,Keys,${email}`);
    await tabTo(page, 'a[href^="/dashboard/takers/remove"]', 20);
    await enter(page);
    expect(await page.locator('h1').innerText()).toBe('Remove Kim <i> Keys?');
    problems.push(...(await visit(page, 'dashboard-remove')));
    await tabTo(page, 'main button.danger', 20);
    await enter(page);
    expect(await page.locator('[role=status]').innerText()).toContain('Removed');
    expect(await page.locator('main').innerText()).not.toContain(email);
    expect((await fetch(resultUrl)).status).toBe(404);

    // Through a hiring link, the user's token finds the person with the hiring entry; another user's does not.
    const hiringPath = new URL((await page.locator('code[id^="hiring-link-"]').first().innerText()).trim()).pathname;
    expect((await takeTest(service.base, hiringPath, { email: 'applicant@example.org' }, base)).statusCode).toBe(303);
    const hired = await fetch(`${base}/v1/personality_assessments/find?token=${token}&email=applicant%40example.org&options[hiring]=true`);
    expect(((await hired.json()) as { hiring: unknown }).hiring).toEqual([{ url: 'https://jobs.example.com/support-lead', role: 'Support Lead' }]);
    const stranger = new FormClient(service.base, base);
    await signUpByMail(stranger, smtp, 'stranger@example.com');
    const strangerToken = await newToken(stranger);
    expect((await fetch(`${base}/v1/personality_assessments/find?token=${strangerToken}&email=applicant%40example.org`)).status).toBe(404);
    await context.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the accessibility check can fail: low contrast and an unlabelled field are found', async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.setContent('<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main><p style="color:#999;background:#fff">Pale text</p><input type="text"></main></body></html>');
    const found = (await axeViolations(page)).map((v) => v.id);
    expect(found).toContain('color-contrast');
    expect(found).toContain('label');
    await page.close();
  });
});
