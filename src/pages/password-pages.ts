/** A forgotten password: asking for a link (where the service sends mail), and choosing the new password from it. */
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

export interface ResetRequestModel {
  csrf: string;
  /** The service sends mail; without it only the operator can reset a password. */
  mailEnabled: boolean;
  email?: string;
  notice?: string | null;
  error?: string | null;
}

export function renderResetRequestPage(model: ResetRequestModel): string {
  const body = model.mailEnabled
    ? `<section class="card">
<h1>Forgot your password?</h1>
<p>Give your account's email: we mail it a link to choose a new password. The link works for two hours.</p>
${model.notice ? `<div class="notice" role="status">${escapeHtml(model.notice)}</div>` : ''}
${errorBox(model.error)}
<form method="post" action="/password-reset">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(model.email ?? '')}"></div>
<button type="submit">Mail me a link</button>
</form>
<p class="small" style="margin-top:14px"><a href="/login">Back to log in</a></p>
</section>`
    : `<section class="card">
<h1>Forgot your password?</h1>
<p>This Rapport service sends no mail, so it cannot mail you a link. Ask its operator to reset your password: they run <code>rapport users reset-password</code> with your email and give you a new one.</p>
<p class="small"><a href="/login">Back to log in</a></p>
</section>`;
  return renderShell({ title: 'Reset your password · Rapport', body });
}

/** The page a reset link opens: a new password, then the account is logged in. */
export function renderNewPasswordPage(email: string, action: string, error?: string | null): string {
  return renderShell({
    title: 'Choose a new password · Rapport',
    body: `<section class="card">
<h1>Choose a new password</h1>
<p>For <strong>${escapeHtml(email)}</strong>. Setting it logs the account out everywhere else.</p>
${errorBox(error)}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="confirm" value="yes">
<div class="field"><label for="password">New password (at least 10 characters)</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" maxlength="200"></div>
<button type="submit">Set my new password</button>
</form>
<p class="muted small" style="margin-top:14px">If you did not ask for this, close this page: your password does not change.</p>
</section>`,
  });
}
