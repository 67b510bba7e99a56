import { queryOne, type Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { newLinkId } from '../users/users.ts';
import { hashKey } from './record.ts';

const NOT_YOURS = 'This result does not exist, was deleted, or the link to it is not complete.';

/**
 * The taker's private link to their result, made with the result's key (only its taker holds
 * it): anyone with the link reads the result, nobody can delete or share it through it. Asking
 * again gives the same link; turning it off makes it answer 404, and a new one is another link.
 */
export async function shareResult(db: Queryable, resultId: string, key: string): Promise<string> {
  const row = await queryOne<{ share_id: string }>(
    db,
    'UPDATE assessments SET share_id = COALESCE(share_id, $3) WHERE id = $1 AND delete_hash = $2 RETURNING share_id',
    [resultId, hashKey(key), newLinkId('s')],
  );
  if (!row) throw new AppError('not_found', NOT_YOURS);
  return row.share_id;
}

export async function unshareResult(db: Queryable, resultId: string, key: string): Promise<void> {
  const row = await queryOne<{ id: string }>(db, 'UPDATE assessments SET share_id = NULL WHERE id = $1 AND delete_hash = $2 RETURNING id', [resultId, hashKey(key)]);
  if (!row) throw new AppError('not_found', NOT_YOURS);
}
