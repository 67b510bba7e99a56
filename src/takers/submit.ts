import type { Questionnaire } from '../assessment/questionnaire.ts';
import { scoreAnswers } from '../assessment/scoring.ts';
import type { Db } from '../db/client.ts';
import { normalizeEmail } from '../people/normalize.ts';
import { AppError } from '../shared/errors.ts';
import { recordAssessment, type StoredAssessment } from './record.ts';

/** Through which link the test was taken: the user's own (their button) or one of their hiring links. */
export interface TestLink {
  userId: string;
  hiringLinkId: string | null;
}

export interface Submission {
  /** The random id the page gave this attempt. */
  submissionId: string;
  email: string;
  firstName: string;
  lastName: string;
  answers: Readonly<Record<string, number>>;
}

const NAME_MAX = 100;
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

function cleanName(value: string, label: string): string | null {
  const name = value.trim();
  if (name === '') return null;
  if (name.length > NAME_MAX || CONTROL.test(name)) throw new AppError('bad_request', `The ${label} must be plain text of at most ${NAME_MAX} characters.`);
  return name;
}

/**
 * Scores a completed test and stores it for the link's user. The user comes from the link the
 * test was opened through, never from the form, so a forged user id in a form does nothing.
 */
export async function submitTest(db: Db, questionnaire: Questionnaire, link: TestLink, submission: Submission): Promise<StoredAssessment> {
  if (!/^[\w-]{16,64}$/.test(submission.submissionId)) throw new AppError('bad_request', 'The test page sent no valid attempt id; reload the page and submit again.');
  const emailNormalized = normalizeEmail(submission.email);
  if (!emailNormalized) throw new AppError('bad_request', 'Give a valid email address.');
  const firstName = cleanName(submission.firstName, 'first name');
  const lastName = cleanName(submission.lastName, 'last name');
  const outcome = scoreAnswers(questionnaire, submission.answers);
  if (!outcome.ok) throw new AppError('bad_request', outcome.message);
  return recordAssessment(db, {
    userId: link.userId,
    hiringLinkId: link.hiringLinkId,
    submissionId: submission.submissionId,
    email: submission.email.trim(),
    emailNormalized,
    firstName,
    lastName,
    questionnaireVersion: questionnaire.version,
    answers: submission.answers,
    estimate: outcome.estimate,
  });
}
