import type { Questionnaire } from '../assessment/questionnaire.ts';
import { scoreAnswers } from '../assessment/scoring.ts';
import type { Db } from '../db/client.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError } from '../shared/errors.ts';
import type { Mailer } from '../mail/mailer.ts';
import { resultConfirmationMail } from '../mail/messages.ts';
import { recordAssessment, type ResultKeyOf, type StoredAssessment } from './record.ts';

/** Through which link the test was taken: the user's own (their button) or one of their hiring links. */
export interface TestLink {
  userId: string;
  hiringLinkId: string | null;
  /** `t:<id>` or `h:<id>`: the link itself, for the limit per link. */
  key: string;
}

export interface Submission {
  /** The random id the page gave this attempt. */
  submissionId: string;
  email: string;
  firstName: string;
  lastName: string;
  answers: Readonly<Record<string, number>>;
  /** The taker's network (src/access/network.ts), for the limit per taker. */
  network: string;
  /** The taker ticked the box agreeing to what is stored and who sees it (the test's first screen). */
  consented: boolean;
}

/** Said when the box is not ticked: nothing is stored without it. */
export const CONSENT_NEEDED = 'Tick the box on the first screen to agree to what is stored and who sees it; your answers are kept in this page.';

const NAME_MAX = 100;
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

function cleanName(value: string, label: string): string | null {
  const name = value.trim();
  if (name === '') return null;
  if (name.length > NAME_MAX || CONTROL.test(name)) throw new AppError('bad_request', `The ${label} must be plain text of at most ${NAME_MAX} characters.`);
  return name;
}

/** The result page's path, with the key that opens it (and its delete link, PDF and private link). */
export function resultPath(id: string, key: string): string {
  return `/r/${encodeURIComponent(id)}?key=${encodeURIComponent(key)}`;
}

export interface SubmitDeps {
  db: Db;
  mailer: Mailer;
  /** PUBLIC_BASE_URL: the base of the link in the mail (set whenever mail is). */
  publicBaseUrl: string | null;
  /** The result's key from its attempt's id (users/sessions.ts `derive`). */
  resultKey: ResultKeyOf;
}

/**
 * Scores a completed test and stores it as the link's user's result. The user comes from the
 * link the test was opened through, never from the form, so a forged user id in a form does
 * nothing. Where mail is set up, the taker is mailed a link that makes the result their profile
 * (src/takers/confirm.ts); until then, and always without mail, it is the user's alone.
 */
export async function submitTest(deps: SubmitDeps, questionnaire: Questionnaire, link: TestLink, submission: Submission): Promise<StoredAssessment> {
  if (!/^[\w-]{16,64}$/.test(submission.submissionId)) throw new AppError('bad_request', 'The test page sent no valid attempt id; reload the page and submit again.');
  if (!submission.consented) throw new AppError('bad_request', CONSENT_NEEDED);
  const emailNormalized = normalizeEmail(submission.email);
  if (!emailNormalized) throw new AppError('bad_request', 'Give a valid email address.');
  const firstName = cleanName(submission.firstName, 'first name');
  const lastName = cleanName(submission.lastName, 'last name');
  const outcome = scoreAnswers(questionnaire, submission.answers);
  if (!outcome.ok) throw new AppError('bad_request', outcome.message);
  const mail = deps.mailer.enabled && deps.publicBaseUrl !== null;
  const stored = await recordAssessment(deps.db, {
    userId: link.userId,
    hiringLinkId: link.hiringLinkId,
    linkKey: link.key,
    network: submission.network,
    submissionId: submission.submissionId,
    email: submission.email.trim(),
    emailNormalized,
    firstName,
    lastName,
    questionnaireVersion: questionnaire.version,
    answers: submission.answers,
    estimate: outcome.estimate,
  }, { mail, keyFor: deps.resultKey });
  if (stored.confirmationToken !== null && deps.publicBaseUrl !== null) {
    // The result's own link goes with it: the taker keeps a way back to see and delete it.
    const resultUrl = stored.deleteKey === null ? null : `${deps.publicBaseUrl}${resultPath(stored.id, stored.deleteKey)}`;
    deps.mailer.send(resultConfirmationMail(submission.email.trim(), deps.publicBaseUrl, stored.confirmationToken, resultUrl));
  }
  return stored;
}
