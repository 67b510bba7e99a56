import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadQuestionnaire } from '../../src/assessment/questionnaire.ts';

/** A cookie jar for inject(): keeps what Set-Cookie says, sends it back. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly app: FastifyInstance, readonly origin = 'http://localhost') {}

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
    const response = await this.app.inject({ method: 'GET', url, headers: { cookie: this.cookieHeader() } });
    this.remember(response);
    return response;
  }

  async post(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: this.origin, ...headers },
      payload: new URLSearchParams(form).toString(),
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

export async function signUp(browser: Browser, email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
  const page = await browser.get('/signup');
  return browser.post('/signup', { csrf: csrfOf(page.body), email, password });
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

/** Takes the test through `path` and returns the redirect to the result page. */
export async function takeTest(app: FastifyInstance, path: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  const taker = new Browser(app);
  const page = await taker.get(path);
  const submission = /name="submission_id" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return taker.post(path, { submission_id: submission, ...answerFields(), ...fields });
}
