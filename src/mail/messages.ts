/**
 * The mails the service sends, in plain text. They name no one but the reader: a confirmation
 * mail can reach someone who never asked for it (a mistyped address, or someone else's), so it
 * says how to ignore it and never who sent the test.
 */
import type { MailMessage } from './mailer.ts';

/** How long a link sent by mail works (src/confirmations/tokens.ts). */
export const CONFIRMATION_HOURS = 48;

function confirmUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/confirm/${token}`;
}

export function resultConfirmationMail(to: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: 'Confirm your personality test result',
    text: `Hello,

someone (you, we hope) took the personality test on Rapport with this address.

To make the result your profile on Rapport, open this link and press "Confirm":

${confirmUrl(baseUrl, token)}

Until then the result stays with whoever sent you the test and does not become your profile.
Once it is, people who look you up on this Rapport service by your email or name see your name
and personality profile (never your answers). The link works once, for ${CONFIRMATION_HOURS} hours.

If you did not take the test, ignore this mail: nothing about you changes.
`,
  };
}

export function signupConfirmationMail(to: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: 'Finish creating your Rapport account',
    text: `Hello,

someone (you, we hope) asked to create a Rapport account with this address.

To finish, open this link and press "Confirm":

${confirmUrl(baseUrl, token)}

The link works once, for ${CONFIRMATION_HOURS} hours. If you did not ask for an account, ignore this
mail: no account is created.
`,
  };
}

/** Sent instead of a link when the address has an account already: the sign-up page said the same either way. */
export function alreadyRegisteredMail(to: string, baseUrl: string): MailMessage {
  return {
    to,
    subject: 'Your Rapport account',
    text: `Hello,

someone (you, we hope) asked to create a Rapport account with this address, which has one
already. Nothing was changed.

To use it, log in at ${baseUrl}/login. If you do not remember the password, ask the operator of
this Rapport service. If you did not ask, ignore this mail.
`,
  };
}

export function accountConfirmationMail(to: string, baseUrl: string, token: string): MailMessage {
  return {
    to,
    subject: "Confirm your Rapport account's address",
    text: `Hello,

to confirm this address for your Rapport account, and so create your API token, open this link
and press "Confirm":

${confirmUrl(baseUrl, token)}

The link works once, for ${CONFIRMATION_HOURS} hours. If you did not ask for it, ignore this mail.
`,
  };
}
