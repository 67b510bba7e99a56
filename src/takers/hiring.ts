import { queryOne, type Queryable } from '../db/client.ts';
import { AppError } from '../shared/errors.ts';
import { newLinkId } from '../users/users.ts';
import { normalizeWebUrl } from '../people/normalize.ts';

export interface HiringLink {
  id: string;
  userId: string;
  role: string;
  url: string;
  createdAt: Date;
  /** When the user closed it (it takes no more tests); null while open. */
  closedAt: Date | null;
}

interface HiringRow extends Record<string, unknown> {
  id: string;
  user_id: string;
  role: string;
  url: string;
  created_at: Date;
  closed_at: Date | null;
}

function fromRow(row: HiringRow): HiringLink {
  return { id: row.id, userId: row.user_id, role: row.role, url: row.url, createdAt: new Date(row.created_at), closedAt: row.closed_at ? new Date(row.closed_at) : null };
}

const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

export async function createHiringLink(db: Queryable, userId: string, input: { role: string; url: string }): Promise<HiringLink> {
  const role = input.role.trim();
  if (role.length === 0 || role.length > 200 || CONTROL.test(role)) throw new AppError('bad_request', 'A hiring link needs a role of 1 to 200 characters, in plain text.');
  // Stored in the %-encoded form the API's `format: uri` promises (| ^ { } and a second # too).
  const url = normalizeWebUrl(input.url);
  if (!url || url.length > 2000) throw new AppError('bad_request', 'The job posting URL must be an http or https address (up to 2,000 characters).');
  const row = await queryOne<HiringRow>(db, 'INSERT INTO hiring_links (id, user_id, role, url) VALUES ($1, $2, $3, $4) RETURNING *', [newLinkId('h'), userId, role, url]);
  if (!row) throw new AppError('internal', 'The hiring link was not stored.');
  return fromRow(row);
}

export async function listHiringLinks(db: Queryable, userId: string): Promise<HiringLink[]> {
  return (await db.query<HiringRow>('SELECT * FROM hiring_links WHERE user_id = $1 ORDER BY created_at DESC, id', [userId])).map(fromRow);
}

/** An open hiring link of a live user, or null (a closed link takes no tests). */
export async function findHiringLink(db: Queryable, id: string): Promise<HiringLink | null> {
  const row = await queryOne<HiringRow>(
    db,
    'SELECT h.* FROM hiring_links h JOIN users u ON u.id = h.user_id WHERE h.id = $1 AND u.disabled_at IS NULL AND h.closed_at IS NULL',
    [id],
  );
  return row ? fromRow(row) : null;
}

/**
 * Closes one of the user's hiring links: its test page answers 404 from now on. The results it
 * brought stay, with their role. Closing a closed link changes nothing; another user's is not found.
 */
export async function closeHiringLink(db: Queryable, userId: string, id: string): Promise<void> {
  const row = await queryOne<{ id: string }>(db, 'UPDATE hiring_links SET closed_at = COALESCE(closed_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id', [id, userId]);
  if (!row) throw new AppError('not_found', 'No such hiring link on your dashboard.');
}

/** What a test page opened through /t/<id> or /h/<id> belongs to; null for an unknown or disabled one. */
export async function resolveTestLink(db: Queryable, kind: 't' | 'h', id: string): Promise<{ userId: string; hiring: HiringLink | null } | null> {
  if (!/^[\w-]{10,80}$/.test(id)) return null;
  if (kind === 'h') {
    const hiring = await findHiringLink(db, id);
    return hiring ? { userId: hiring.userId, hiring } : null;
  }
  const row = await queryOne<{ id: string }>(db, 'SELECT id FROM users WHERE test_link_id = $1 AND disabled_at IS NULL', [id]);
  return row ? { userId: row.id, hiring: null } : null;
}
