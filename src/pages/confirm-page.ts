/** The page a link sent by mail opens: it says what the link confirms and asks to press Confirm. */
import type { ConfirmationPurpose } from '../confirmations/tokens.ts';
import { renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

const TEXT: Record<ConfirmationPurpose, { title: string; body: string; button: string }> = {
  result: {
    title: 'Make this result your profile?',
    body: 'Your personality test result becomes your profile on this Rapport service: people who look you up by your email or name get your name and personality profile (never your answers). A result you take and confirm later replaces it, and you can delete it from your result page at any time.',
    button: 'Confirm: make it my profile',
  },
  signup: {
    title: 'Create your Rapport account?',
    body: 'Your account is made with the password you chose when you signed up, and you are logged in.',
    button: 'Confirm: create my account',
  },
  account: {
    title: "Confirm your account's address?",
    body: 'Your Rapport account can then create its API token.',
    button: 'Confirm my address',
  },
  // Shown by password-pages.ts with a field for the new password; kept here for completeness.
  password: {
    title: 'Choose a new password',
    body: 'Your account gets the new password and is logged out everywhere else.',
    button: 'Set my new password',
  },
};

/**
 * Following a link changes something only when the button is pressed (a POST): mail systems
 * and link scanners open links in mail on their own, and such a visit must not confirm anything.
 */
export function renderConfirmPage(purpose: ConfirmationPurpose, email: string, action: string): string {
  const text = TEXT[purpose];
  return renderShell({
    title: `${text.title} · Rapport`,
    body: `<section class="card">
<h1>${escapeHtml(text.title)}</h1>
<p>For <strong>${escapeHtml(email)}</strong>. ${escapeHtml(text.body)}</p>
<p class="muted small">If you did not ask for this, close this page: nothing changes.</p>
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="confirm" value="yes"><button type="submit">${escapeHtml(text.button)}</button></form>
</section>`,
  });
}
