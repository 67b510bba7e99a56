/** Sign-up and log-in forms. */
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

export interface AuthPageModel {
  mode: 'signup' | 'login';
  csrf: string;
  email?: string;
  error?: string | null;
  notice?: string | null;
  /** Whether /signup is open (the log-in page links to it only then). */
  signupOpen: boolean;
  /** The service sends mail: a sign-up is finished through a link mailed to the address. */
  mailConfirms: boolean;
}

export function renderAuthPage(model: AuthPageModel): string {
  const signup = model.mode === 'signup';
  const title = signup ? 'Create your account' : 'Log in';
  const other = signup
    ? '<p class="small">Already have an account? <a href="/login">Log in</a></p>'
    : `<p class="small"><a href="/password-reset">Forgot your password?</a></p>${model.signupOpen ? '<p class="small">No account yet? <a href="/signup">Create one</a></p>' : ''}`;
  const body = `<section class="card auth">
<h1>${title}</h1>
${signup ? '<p class="muted">Give people your personality test, see their results and look them up through the Assessment API.</p>' : ''}
${signup && model.mailConfirms ? '<p class="muted small">We mail you a link to confirm your address: your account is made when you open it.</p>' : ''}
${model.notice ? `<div class="notice" role="status">${escapeHtml(model.notice)}</div>` : ''}
${errorBox(model.error)}
<form method="post" action="/${model.mode}">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(model.email ?? '')}"></div>
<div class="field"><label for="password">Password${signup ? ' (at least 10 characters)' : ''}</label><input id="password" name="password" type="password" autocomplete="${signup ? 'new-password' : 'current-password'}" required minlength="${signup ? 10 : 1}" maxlength="200"></div>
<button type="submit">${signup ? 'Create account' : 'Log in'}</button>
</form>
<div class="after">
${other}
</div>
</section>`;
  return renderShell({ title: `${title} · Rapport`, body, css: '.auth{max-width:480px;margin:16px auto 18px}.auth .after{margin-top:16px}' });
}
