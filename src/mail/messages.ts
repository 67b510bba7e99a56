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

/**
 * `resultUrl`: the result page with its key, so the taker keeps a way back to see, download and
 * delete the result (the page's address was the only one). It goes to the address the result is
 * filed under: whoever reads that mailbox may delete a result filed under it.
 */
export function resultConfirmationMail(to: string, baseUrl: string, token: string, resultUrl: string | null = null): MailMessage {
  const keep = resultUrl === null
    ? ''
    : `
Your result, its PDF and the link that deletes it are on your result page. Keep this mail: the
page's address is the only way back to it.

${resultUrl}
`;
  return {
    to,
    subject: 'Confirm your personality test result',
    text: `Hello,

someone (you, we hope) took the personality test on Rapport with this address.
${keep}
To make the result your profile on Rapport, open this link and press "Confirm":

${confirmUrl(baseUrl, token)}

Until then the result stays with whoever sent you the test and does not become your profile.
Once it is, people who look you up on this Rapport service by your email or name see your name
and personality profile (never your answers). The link works once, for ${CONFIRMATION_HOURS} hours.

If you did not take the test, ignore this mail: nothing about you changes.${resultUrl === null ? '' : ' You can also\ndelete the result from the result page above.'}
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

To use it, log in at ${baseUrl}/login. If you do not remember the password, reset it at
${baseUrl}/password-reset. If you did not ask, ignore this mail.
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

export function passwordResetMail(to: string, baseUrl: string, token: string, hours = 2): MailMessage {
  return {
    to,
    subject: 'Reset your Rapport password',
    text: `Hello,

someone (you, we hope) asked to reset the password of the Rapport account with this address.

To choose a new password, open this link:

${confirmUrl(baseUrl, token)}

The link works once, for ${hours} hours. Setting a new password logs the account out everywhere.
If you did not ask for this, ignore this mail: your password does not change.
`,
  };
}
