/**
 * Following a link sent by mail: the link is used up and what it stands for is done in one
 * transaction, so a link that fails halfway still works, and one that worked works no more.
 *
 * What a link does belongs to the folder that mails it (users/: sign-up, account and password
 * links; takers/: results), and those folders issue links through this one, so the caller
 * passes the actions in: confirmations/ stays below users/ and takers/ (no folder loop,
 * test/lint/import-graph.test.ts).
 */
import type { Db, Queryable } from '../db/client.ts';
import { consumeConfirmation, type Confirmation, type ConfirmationPurpose } from './tokens.ts';

/** What following each kind of link does, inside the transaction that uses the link up. */
export type LinkActions<T> = { readonly [P in ConfirmationPurpose]: (tx: Queryable, confirmation: Confirmation) => Promise<T> };

export async function followConfirmation<T>(db: Db, token: string, actions: LinkActions<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const confirmation = await consumeConfirmation(tx, token);
    return actions[confirmation.purpose](tx, confirmation);
  });
}
