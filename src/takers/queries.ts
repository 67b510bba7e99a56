import { queryOne, type Queryable } from '../db/client.ts';
import { NOT_AN_EMAIL_IN_QUERY, normalizeEmail } from '../people/normalize.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { AppError } from '../shared/errors.ts';
import { hashKey } from './record.ts';

/** What a result page shows: the taker's own answers to the form, never a stored person's details. */
export interface ResultView {
  id: string;
  estimate: TraitEstimate;
  firstName: string | null;
  lastName: string | null;
  /** The address the result is filed under, as the taker gave it. */
  email: string;
  /** The profile page of the person it was confirmed for; null until the taker confirms the address. */
  publicId: string | null;
  /** A confirmation link for it was mailed and still works. */
  linkLive: boolean;
  /** The taker's private link to it (/s/<id>); null when there is none. */
  shareId: string | null;
  /** Who sent the test: the user's organisation as set on their dashboard, null when not set. */
  organisationName: string | null;
  createdAt: Date;
}

interface ResultRow extends Record<string, unknown> {
  id: string;
  estimate: TraitEstimate;
  first_name: string | null;
  last_name: string | null;
  email: string;
  public_id: string | null;
  link_live: boolean;
  share_id: string | null;
  organisation_name: string | null;
  created_at: Date;
}

const RESULT_SELECT = `SELECT a.id, a.estimate, a.first_name, a.last_name, a.email, p.public_id, a.share_id, u.organisation_name, a.created_at,
       EXISTS (SELECT 1 FROM email_confirmations c WHERE c.subject_id = a.id AND c.expires_at > now()) AS link_live
     FROM assessments a LEFT JOIN people p ON p.id = a.person_id JOIN users u ON u.id = a.user_id`;

function resultOf(row: ResultRow): ResultView {
  return {
    id: row.id,
    estimate: row.estimate,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    publicId: row.public_id,
    linkLive: row.link_live,
    shareId: row.share_id,
    organisationName: row.organisation_name,
    createdAt: new Date(row.created_at),
  };
}

/** A result by its id and key (the key in the links its taker was given); null when either is wrong: a wrong key shows nothing. */
export async function findResult(db: Queryable, id: string, key: string): Promise<ResultView | null> {
  const row = await queryOne<ResultRow>(db, `${RESULT_SELECT} WHERE a.id = $1 AND a.delete_hash = $2`, [id, hashKey(key)]);
  return row ? resultOf(row) : null;
}

/** A result by its taker's private link; null once the link is revoked or the result deleted. */
export async function findSharedResult(db: Queryable, shareId: string): Promise<ResultView | null> {
  if (!/^[\w-]{10,80}$/.test(shareId)) return null;
  const row = await queryOne<ResultRow>(db, `${RESULT_SELECT} WHERE a.share_id = $1`, [shareId]);
  return row ? resultOf(row) : null;
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

/** A search's words as a LIKE pattern: % and _ typed by the user match themselves. */
function likePattern(query: string): string {
  return `%${query.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The user's test takers, newest first, for the dashboard and its CSV: every result sent through
 * their links (a person who took the test twice is listed twice). `query` keeps those whose name
 * or address contains it, whatever the case. `total`: how many match, beyond `limit`.
 */
export async function listTakers(db: Queryable, userId: string, options: { query?: string; limit?: number } = {}): Promise<{ takers: TakerRow[]; total: number }> {
  const query = options.query?.trim() ?? '';
  const filter = query === '' ? '' : " AND (lower(a.email) LIKE $2 OR lower(COALESCE(p.first_name, a.first_name, '') || ' ' || COALESCE(p.last_name, a.last_name, '')) LIKE $2)";
  const params: unknown[] = query === '' ? [userId] : [userId, likePattern(query)];
  const from = `FROM assessments a LEFT JOIN people p ON p.id = a.person_id LEFT JOIN hiring_links h ON h.id = a.hiring_link_id WHERE a.user_id = $1${filter}`;
  const rows = await db.query<{ first_name: string | null; last_name: string | null; email: string; public_id: string | null; estimate: TraitEstimate; role: string | null; created_at: Date }>(
    `SELECT COALESCE(p.first_name, a.first_name) AS first_name, COALESCE(p.last_name, a.last_name) AS last_name, a.email, p.public_id, a.estimate, h.role, a.created_at
     ${from} ORDER BY a.created_at DESC, a.id DESC LIMIT ${Math.max(1, Math.floor(options.limit ?? 200))}`,
    params,
  );
  const count = await queryOne<{ n: number }>(db, `SELECT count(*)::int AS n ${from}`, params);
  const takers = rows.map((r) => ({ firstName: r.first_name, lastName: r.last_name, email: r.email, publicId: r.public_id, estimate: r.estimate, role: r.role, takenAt: new Date(r.created_at) }));
  return { takers, total: count?.n ?? takers.length };
}

/** The user a token belongs to (dashboard tokens), or null (tokens an operator made). */
export async function tokenUser(db: Queryable, tokenId: string): Promise<string | null> {
  const row = await queryOne<{ user_id: string | null }>(db, 'SELECT user_id FROM api_tokens WHERE id = $1', [tokenId]);
  return row?.user_id ?? null;
}
