import { queryOne, type Queryable } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';

export type AnalysisStatus = 'processing' | 'complete' | 'no_personality';

export interface Analysis {
  id: string;
  tokenId: string;
  source: 'text' | 'pdf';
  status: AnalysisStatus;
  estimate: TraitEstimate | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

interface AnalysisRow extends Record<string, unknown> {
  id: string;
  token_id: string;
  source: 'text' | 'pdf';
  status: AnalysisStatus;
  estimate: unknown;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = 'id, token_id, source, status, estimate, failure_reason, created_at, completed_at';

function parseJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

function fromRow(row: AnalysisRow): Analysis {
  return {
    id: row.id,
    tokenId: row.token_id,
    source: row.source,
    status: row.status,
    estimate: parseJson<TraitEstimate>(row.estimate),
    failureReason: row.failure_reason,
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at ? new Date(row.completed_at) : null,
  };
}

export async function insertPdfAnalysis(db: Queryable, id: string, tokenId: string): Promise<void> {
  await db.query("INSERT INTO analyses (id, token_id, source, status) VALUES ($1, $2, 'pdf', 'processing')", [id, tokenId]);
}

/** One piece of an upload kept in the database (PostgreSQL), in order from 0. */
export async function insertInputChunk(db: Queryable, id: string, seq: number, bytes: Uint8Array): Promise<void> {
  await db.query('INSERT INTO analysis_input_chunks (analysis_id, seq, bytes) VALUES ($1, $2, $3)', [id, seq, bytes]);
}

/** Whether any piece of the upload is in the database. */
export async function hasInputChunks(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('SELECT 1 FROM analysis_input_chunks WHERE analysis_id = $1 LIMIT 1', [id])).length > 0;
}

/** The pieces of an upload, one query each, so only one piece is in memory at a time. */
export async function* inputChunks(db: Queryable, id: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq += 1) {
    const row = await queryOne<{ bytes: Uint8Array }>(db, 'SELECT bytes FROM analysis_input_chunks WHERE analysis_id = $1 AND seq = $2', [id, seq]);
    if (!row) return;
    yield row.bytes;
  }
}

/** The token's unfinished analyses (for the pending cap; submitPdf counts under a lock). */
export async function pendingAnalyses(db: Queryable, tokenId: string): Promise<number> {
  const row = await queryOne<{ pending: number | string }>(db, "SELECT count(*) AS pending FROM analyses WHERE token_id = $1 AND status = 'processing'", [tokenId]);
  // PostgreSQL sends count(*) (a bigint) as a string, the embedded database as a number.
  return Number(row?.pending ?? 0);
}

/** Only the token that asked may read an analysis; anyone else sees nothing. */
export async function findAnalysis(db: Queryable, id: string, tokenId: string): Promise<Analysis | null> {
  const row = await queryOne<AnalysisRow>(db, `SELECT ${COLUMNS} FROM analyses WHERE id = $1 AND token_id = $2`, [id, tokenId]);
  return row ? fromRow(row) : null;
}

export async function analysisStatus(db: Queryable, id: string): Promise<AnalysisStatus | null> {
  const row = await queryOne<{ status: AnalysisStatus }>(db, 'SELECT status FROM analyses WHERE id = $1', [id]);
  return row?.status ?? null;
}

/** Records the outcome and drops the uploaded bytes, which are no longer needed. */
/** Records an analysis's outcome; returns whose it is and how it ended, or null when it had ended already. */
export async function finishAnalysis(
  db: Queryable,
  id: string,
  outcome: { estimate: TraitEstimate } | { failureReason: string },
): Promise<{ tokenId: string; status: 'complete' | 'no_personality' } | null> {
  const done = 'estimate' in outcome;
  await db.query('DELETE FROM analysis_input_chunks WHERE analysis_id = $1', [id]);
  const rows = await db.query<{ token_id: string; status: 'complete' | 'no_personality' }>(
    `UPDATE analyses SET status = $2, estimate = $3, failure_reason = $4, input = NULL, completed_at = now()
     WHERE id = $1 AND status = 'processing' RETURNING token_id, status`,
    [id, done ? 'complete' : 'no_personality', done ? JSON.stringify(outcome.estimate) : null, done ? null : outcome.failureReason],
  );
  const row = rows[0];
  return row ? { tokenId: row.token_id, status: row.status } : null;
}

/** Ids of the analyses still in progress: their spooled uploads must be kept. */
export async function analysesInProgress(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>("SELECT id FROM analyses WHERE status = 'processing'");
  return new Set(rows.map((row) => row.id));
}
