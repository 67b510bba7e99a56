/**
 * Following a link sent by mail: the link is used up and what it stands for is done in one
 * transaction, so a link that fails halfway still works, and one that worked works no more.
 */
import type { Db } from '../db/client.ts';
import { confirmResult } from '../takers/confirm.ts';
import { confirmPasswordReset } from '../users/password-reset.ts';
import { confirmAccount, confirmSignup } from '../users/signup.ts';
import type { User } from '../users/users.ts';
import { AppError } from '../shared/errors.ts';
import { consumeConfirmation } from './tokens.ts';

export type Followed =
  /** A test result is now the person's profile, at /p/<publicId>. */
  | { purpose: 'result'; publicId: string }
  /** A sign-up is finished: the new account, to log in. */
  | { purpose: 'signup'; user: User }
  /** An account's address is confirmed. */
  | { purpose: 'account' }
  /** An account has a new password (its sessions ended): the account, to log in. */
  | { purpose: 'password'; user: User };

/** `passwordHash`: the new password a reset link is followed with (its form asks for it). */
export async function followConfirmation(db: Db, token: string, options: { passwordHash?: string } = {}): Promise<Followed> {
  return db.transaction(async (tx): Promise<Followed> => {
    const confirmation = await consumeConfirmation(tx, token);
    switch (confirmation.purpose) {
      case 'result':
        return { purpose: 'result', ...(await confirmResult(tx, confirmation.subjectId ?? '')) };
      case 'signup':
        return { purpose: 'signup', user: await confirmSignup(tx, confirmation) };
      case 'account':
        await confirmAccount(tx, confirmation);
        return { purpose: 'account' };
      case 'password':
        // Without a new password the transaction fails and the link stays usable.
        if (options.passwordHash === undefined) throw new AppError('bad_request', 'Choose a new password to use this link.');
        return { purpose: 'password', user: await confirmPasswordReset(tx, confirmation, options.passwordHash) };
    }
  });
}
