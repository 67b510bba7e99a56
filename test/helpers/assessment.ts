import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadQuestionnaire } from '../../src/assessment/questionnaire.ts';
import { confirmLinkIn, type SmtpInbox } from './smtp.ts';

/** A cookie jar for inject(): keeps what Set-Cookie says, sends it back. */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** `remoteAddress`: the client's IP as the service sees it (limits per network). */
  constructor(readonly app: FastifyInstance, readonly origin = 'http://localhost', readonly remoteAddress?: string) {}

  private remember(response: LightMyRequestResponse): void {
    const raw = response.headers['set-cookie'];
    const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
    for (const line of list) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attrs.some((a) => /max-age=0\b/i.test(a.trim())) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() }, ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}) });
    this.remember(response);
    return response;
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...headers },
      payload: new URLSearchParams(form).toString(),
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
    });
    this.remember(response);
    return response;
  }
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no csrf field on the page');
  return match[1];
}

/** A complete, varied set of answers (not straight-lined), as form fields. */
export function answerFields(seed = 0): Record<string, string> {
  const q = loadQuestionnaire();
  return Object.fromEntries(q.items.map((item, i) => [`q.${item.id}`, String(((i * 3 + seed) % 5) + 1)]));
}

/** Posts the sign-up form: the answer, the same for a new address and a taken one. */
export async function askForAccount(browser: Browser, email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
  const page = await browser.get('/signup');
  return browser.post('/signup', { csrf: csrfOf(page.body), email, password });
}

export async function logIn(browser: Browser, email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
  const page = await browser.get('/login');
  return browser.post('/login', { csrf: csrfOf(page.body), email, password });
}

/**
 * Signs up on a service that sends no mail (the account is made at once, unconfirmed) and logs
 * in, as a person would: the log-in's answer (303 to the dashboard) is returned.
 */
export async function signUp(browser: Browser, email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
  const asked = await askForAccount(browser, email, password);
  if (asked.statusCode !== 200) throw new Error(`sign-up answered ${asked.statusCode}`);
  return logIn(browser, email, password);
}

/** Opens a link mailed by the service (its path) and presses Confirm, as the reader would. */
export async function followMailedLink(browser: Browser, link: string): Promise<LightMyRequestResponse> {
  const path = new URL(link).pathname;
  const page = await browser.get(path);
  if (page.statusCode !== 200) return page;
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return browser.post(action.replace(/&amp;/g, '&'), { confirm: 'yes' });
}

/** The user's test link path (/t/…) from their dashboard. */
export async function testLinkOf(browser: Browser): Promise<string> {
  const page = await browser.get('/dashboard');
  const match = /href="https?:\/\/[^/"]+(\/t\/[\w-]+)"/.exec(page.body);
  if (!match?.[1]) throw new Error('no test link on the dashboard');
  return match[1];
}

export async function newToken(browser: Browser): Promise<string> {
  const page = await browser.get('/dashboard');
  // Rotating a live token asks for its box ticked, as a user would; creating the first has no box.
  const rotating = page.body.includes('name="confirm" value="rotate"');
  const response = await browser.post('/dashboard/token', { csrf: csrfOf(page.body), ...(rotating ? { confirm: 'rotate' } : {}) });
  const match = /<code id="new-token">([^<]+)<\/code>/.exec(response.body);
  if (!match?.[1]) throw new Error('no token shown');
  return match[1];
}

/** Takes the test through `path` and returns the redirect to the result page. `origin`: the service's own (PUBLIC_BASE_URL's, where set). */
export async function takeTest(app: FastifyInstance, path: string, fields: Record<string, string>, origin?: string): Promise<LightMyRequestResponse> {
  const taker = new Browser(app, origin);
  const page = await taker.get(path);
  const submission = /name="submission_id" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  // The box on the test's first screen is ticked, as it must be for anything to be stored.
  return taker.post(path, { submission_id: submission, consent: 'yes', ...answerFields(), ...fields });
}

/**
 * Signs up on a service that sends mail: asks for the account, then follows the link mailed to
 * the address (the `n`th mail to it); the follow's answer (303 to the dashboard, logged in).
 */
export async function signUpByMail(browser: Browser, inbox: SmtpInbox, email: string, n = 1, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
  const asked = await askForAccount(browser, email, password);
  if (asked.statusCode !== 200) throw new Error(`sign-up answered ${asked.statusCode}`);
  return followMailedLink(browser, confirmLinkIn(await inbox.mailTo(email, n)));
}

/** Confirms a test result as its taker: follows the `n`th mail to the address. */
export async function confirmByMail(app: FastifyInstance, inbox: SmtpInbox, email: string, n = 1, origin?: string): Promise<LightMyRequestResponse> {
  return followMailedLink(new Browser(app, origin), confirmLinkIn(await inbox.mailTo(email, n)));
}
