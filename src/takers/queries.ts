import { queryOne, type Queryable } from '../db/client.ts';
import { NOT_AN_EMAIL_IN_QUERY, normalizeEmail } from '../people/normalize.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';

/** What a result page shows: the taker's own answers to the form, never a stored person's details. */
export interface ResultView {
  id: string;
  estimate: TraitEstimate;
  firstName: string | null;
  lastName: string | null;
  /** The profile page of the person it was confirmed for; null until the taker confirms the address. */
  publicId: string | null;
  /** A confirmation link for it was mailed and still works. */
  linkLive: boolean;
  createdAt: Date;
}

export async function findResult(db: Queryable, id: string): Promise<ResultView | null> {
  const row = await queryOne<{ id: string; estimate: TraitEstimate; first_name: string | null; last_name: string | null; public_id: string | null; link_live: boolean; created_at: Date }>(
    db,
    `SELECT a.id, a.estimate, a.first_name, a.last_name, p.public_id, a.created_at,
       EXISTS (SELECT 1 FROM email_confirmations c WHERE c.subject_id = a.id AND c.expires_at > now()) AS link_live
     FROM assessments a LEFT JOIN people p ON p.id = a.person_id WHERE a.id = $1`,
    [id],
  );
  if (!row) return null;
  return { id: row.id, estimate: row.estimate, firstName: row.first_name, lastName: row.last_name, publicId: row.public_id, linkLive: row.link_live, createdAt: new Date(row.created_at) };
}

export interface FoundTaker {
  firstName: string | null;
  lastName: string | null;
  photoUrl: string | null;
  estimate: TraitEstimate;
  hiring: { url: string; role: string }[];
}

/** Same answer for an unknown email and for someone who took the test through another user. */
const NOT_FOUND = 'No one with this email has taken the test through your links.';

/**
 * A person who took the test through one of this user's links (their button or a hiring link),
 * with the latest of those results, confirmed or not: a result is its user's at once. The names
 * are the ones given with the test; a stored person's (and photo) only once the taker confirmed
 * the address, which makes them that person. Nobody else is visible to the user.
 */
export async function findTakerForUser(db: Queryable, userId: string | null, email: string): Promise<FoundTaker> {
  const normalized = normalizeEmail(email);
  if (!normalized) throw new AppError('bad_request', NOT_AN_EMAIL_IN_QUERY);
  if (!userId) throw new AppError('not_found', NOT_FOUND);
  const rows = await db.query<{ first_name: string | null; last_name: string | null; photo_url: string | null; estimate: TraitEstimate; role: string | null; url: string | null }>(
    `SELECT COALESCE(p.first_name, a.first_name) AS first_name, COALESCE(p.last_name, a.last_name) AS last_name, p.photo_url, a.estimate, h.role, h.url
     FROM assessments a LEFT JOIN people p ON p.id = a.person_id
     LEFT JOIN hiring_links h ON h.id = a.hiring_link_id
     WHERE a.user_id = $1 AND a.email_normalized = $2
     ORDER BY a.created_at DESC, a.id DESC`,
    [userId, normalized],
  );
  const latest = rows[0];
  if (!latest) throw new AppError('not_found', NOT_FOUND);
  const hiring: { url: string; role: string }[] = [];
  for (const row of rows) {
    if (row.url !== null && row.role !== null && !hiring.some((h) => h.url === row.url && h.role === row.role)) hiring.push({ url: row.url, role: row.role });
  }
  return { firstName: latest.first_name, lastName: latest.last_name, photoUrl: latest.photo_url, estimate: latest.estimate, hiring };
}

export interface TakerRow {
  firstName: string | null;
  lastName: string | null;
  email: string;
  /** The person's profile page once the taker confirmed the address; null before. */
  publicId: string | null;
  estimate: TraitEstimate;
  role: string | null;
  takenAt: Date;
}

/** The user's most recent test takers, for the dashboard. */
export async function listTakers(db: Queryable, userId: string, limit = 200): Promise<TakerRow[]> {
  const rows = await db.query<{ first_name: string | null; last_name: string | null; email: string; public_id: string | null; estimate: TraitEstimate; role: string | null; created_at: Date }>(
    `SELECT COALESCE(p.first_name, a.first_name) AS first_name, COALESCE(p.last_name, a.last_name) AS last_name, a.email, p.public_id, a.estimate, h.role, a.created_at
     FROM assessments a LEFT JOIN people p ON p.id = a.person_id LEFT JOIN hiring_links h ON h.id = a.hiring_link_id
     WHERE a.user_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name, email: r.email, publicId: r.public_id, estimate: r.estimate, role: r.role, takenAt: new Date(r.created_at) }));
}

/** The user a token belongs to (dashboard tokens), or null (tokens an operator made). */
export async function tokenUser(db: Queryable, tokenId: string): Promise<string | null> {
  const row = await queryOne<{ user_id: string | null }>(db, 'SELECT user_id FROM api_tokens WHERE id = $1', [tokenId]);
  return row?.user_id ?? null;
}
