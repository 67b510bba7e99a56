import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_BROWSER, launchChromium } from '../helpers/browser.ts';
import { axeViolations, DESKTOP, describeViolations, PHONE, screenshots, tabTo, visit } from '../helpers/pages.ts';
import { freePort } from '../helpers/process.ts';
import { createTestService, type TestService } from '../helpers/service.ts';
import { confirmLinkIn, startSmtp, type SmtpInbox } from '../helpers/smtp.ts';

let smtp: SmtpInbox;
let service: TestService;
let browser: Browser;
let base: string;

/** Presses Enter on the focused element and waits for the page it leads to. */
async function enter(page: Page): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

describe.skipIf(!HAVE_BROWSER)('the front door in a browser', () => {
  beforeAll(async () => {
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

  it('the start page, sign-up by mail, the dashboard and a forgotten password, by keyboard', { timeout: 240_000 }, async () => {
    const problems: string[] = [];
    // A client asking for JSON (curl, fetch) still gets the links; a browser gets the page.
    expect(await (await fetch(`${base}/`)).json()).toMatchObject({ service: 'Rapport', docs: '/docs' });
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const landing = await page.goto(`${base}/`);
    expect(landing?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('h1').innerText()).toMatch(/talk to the people you work with/);
    expect(await page.locator('a[href="/docs"]').count()).toBeGreaterThan(0);
    problems.push(...(await visit(page, 'landing')));

    await tabTo(page, 'main a[href="/signup"]', 20);
    await enter(page);
    expect(page.url()).toBe(`${base}/signup`);
    problems.push(...(await visit(page, 'signup')));
    await tabTo(page, '#email', 20);
    await page.keyboard.type('front.door@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a very good password');
    await enter(page);
    expect(await page.locator('[role=status]').innerText()).toContain('we are mailing it a link');
    problems.push(...(await visit(page, 'signup-mailed')));

    await page.goto(confirmLinkIn(await smtp.mailTo('front.door@example.com')));
    problems.push(...(await visit(page, 'confirm-signup')));
    await tabTo(page, 'main button[type=submit]');
    await enter(page);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    problems.push(...(await visit(page, 'dashboard-new')));

    // Who is asking: the name the test's first screen gives.
    await tabTo(page, '#organisation', 40);
    await page.keyboard.type('Acme Outfitters');
    await enter(page);
    expect(await page.locator('[role=status]').innerText()).toContain('names your organisation');
    expect(await page.locator('#org-title + p strong').innerText()).toBe('Acme Outfitters');

    await tabTo(page, 'form[action="/dashboard/token"] button', 60);
    await enter(page);
    const first = (await page.locator('#new-token').innerText()).trim();
    // Rotating asks for the box, which says what the button does.
    await tabTo(page, '#rotate-confirm', 60);
    expect(await page.locator('label[for="rotate-confirm"]').innerText()).toMatch(/^Yes, rotate the token/);
    await page.keyboard.press('Space');
    await tabTo(page, 'form[action="/dashboard/token"] button');
    await enter(page);
    const second = (await page.locator('#new-token').innerText()).trim();
    expect(second).toMatch(/^rpa_/);
    expect(second).not.toBe(first);
    problems.push(...(await visit(page, 'dashboard-token')));

    // A hiring link: made, copied, closed.
    await tabTo(page, '#role', 60);
    await page.keyboard.type('Support Lead');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://jobs.example.com/support-lead');
    await enter(page);
    const hiringUrl = await page.locator('code[id^="hiring-link-"]').first().innerText();
    expect(hiringUrl).toMatch(/\/h\/h_/);
    await tabTo(page, 'button[data-copy^="hiring-link-"]', 60);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#hiring-link-0-status').innerText()).toBe('Copied.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(hiringUrl);
    expect((await fetch(hiringUrl)).status).toBe(200);
    problems.push(...(await visit(page, 'dashboard-hiring')));
    await tabTo(page, 'form[action="/dashboard/hiring/close"] button', 60);
    await enter(page);
    expect(await page.locator('tr.closed').innerText()).toMatch(/Closed \d{4}-\d\d-\d\d/);
    const closed = await page.context().newPage();
    const closedAnswer = await closed.goto(hiringUrl);
    expect(closedAnswer?.status()).toBe(404);
    problems.push(...(await visit(closed, 'error-closed-hiring-link')));
    await closed.close();

    // Log out, then back in through a forgotten password mailed to the address.
    await tabTo(page, 'form[action="/logout"] button', 80);
    await enter(page);
    expect(new URL(page.url()).pathname).toBe('/login');
    problems.push(...(await visit(page, 'login')));
    await tabTo(page, 'a[href="/password-reset"]', 20);
    await enter(page);
    problems.push(...(await visit(page, 'password-reset')));
    await tabTo(page, '#email', 20);
    await page.keyboard.type('front.door@example.com');
    await enter(page);
    expect(await page.locator('[role=status]').innerText()).toMatch(/If an account has this address, we are mailing it a link/);
    const resetMail = await smtp.mailTo('front.door@example.com', 2);
    expect(resetMail.subject).toBe('Reset your Rapport password');
    await page.goto(confirmLinkIn(resetMail));
    problems.push(...(await visit(page, 'password-new')));
    await tabTo(page, '#password', 20);
    await page.keyboard.type('a brand new password');
    await enter(page);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.locator('[role=status]').innerText()).toContain('Your new password is set');
    await context.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('one branded error page for every page of the service; JSON for the API', { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    const page = await browser.newPage({ viewport: DESKTOP });
    const titles: string[] = [];
    for (const [name, path] of [
      ['error-404', '/no/such/page'],
      ['error-result', '/r/r_nosuchresultnosuchresultnosuchresult?key=wrong'],
      ['error-profile', '/p/pp_nosuchprofile'],
      ['error-test-link', '/t/t_nosuchlinknosuchlinknosuchlink'],
      ['error-confirm-link', `/confirm/${'x'.repeat(43)}`],
    ] as const) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status(), path).toBe(404);
      expect(await page.locator('.message .code').innerText()).toBe('Error 404');
      expect(await page.locator('a.brand').count()).toBe(1);
      titles.push(await page.locator('h1').innerText());
      problems.push(...(await visit(page, name)));
    }
    expect(titles[0]).toBe('Page not found');
    // The API keeps its error body, whatever the path.
    const api = await fetch(`${base}/no/such/page`);
    expect(api.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const v1 = await fetch(`${base}/v1/nothing`, { headers: { accept: 'text/html' } });
    expect(v1.headers.get('content-type')).toMatch(/application\/json/);
    await page.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it("/docs is titled and styled as Rapport's, readable at 390 px, with readable badges", { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: PHONE });
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.title()).toMatch(/^Rapport: /);
    expect(await page.locator('.rapport-docs-head a.brand').innerText()).toBe('Rapport API docs');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    // Its screenshots; swagger-ui is not ours to fix everywhere (the full check `visit` makes is
    // not asserted here), but its text must be readable: no contrast failures.
    await screenshots(page, 'docs');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const contrast = (await axeViolations(page, ['color-contrast'])).filter((v) => v.id === 'color-contrast');
      expect(contrast, describeViolations(`/docs at ${size.width} px`, contrast)).toEqual([]);
    }
    await page.close();
  });
});
