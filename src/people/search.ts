import { statement, type Queryable, type Statement } from '../db/client.ts';
import type { TraitEstimate } from '../personality/types.ts';
import { nameKey } from './name-key.ts';
import { nicknamesOf, type NicknameTable, nicknameTable } from './nicknames.ts';
import { normalizeEmail } from './normalize.ts';

/**
 * Finding the one stored person a search names (group C). Wrong-person links are the worst
 * failure here, so the search declines rather than guesses: an email must be equal; names
 * must be close, and the best candidate must beat the runner-up by a clear margin.
 */
export interface SearchCriteria {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  companyName: string | null;
  location: string | null;
}

export interface MatchedPerson {
  id: string;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  estimate: TraitEstimate | null;
  verified: boolean;
}

export type MatchResult =
  | { person: MatchedPerson; by: 'email' | 'name'; score: number }
  | { person: null; reason: 'no_criteria' | 'none' | 'ambiguous' };

/** A first name this close (1 − edits/length) is a typo of it; Joan is not John (0.75). */
export const FIRST_NAME_MIN = 0.85;
/** Last names: one edit in five letters (Smiht, Smyth) still counts. */
export const LAST_NAME_MIN = 0.8;
/** The least score a match needs, and how far it must be ahead of the next candidate. */
export const MATCH_MIN = 0.8;
export const MATCH_MARGIN = 0.1;

const NICKNAME_SCORE = 0.95;
/** One part of a double-barrelled last name (Domingo for Domingo-Ruiz): close, not equal. */
const LAST_NAME_PART_SCORE = 0.9;
/** Parts this short (the O of O'Brien) say too little on their own. */
const LAST_NAME_PART_MIN_LENGTH = 3;
const COMPANY_AGREES = 0.1;
const COMPANY_DIFFERS = -0.25;
const LOCATION_AGREES = 0.05;
const LOCATION_DIFFERS = -0.15;

export type Candidate = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  company_name: string | null;
  location: string | null;
  estimate: TraitEstimate | string | null;
  verified: boolean;
  first_key: string | null;
  last_key: string | null;
  /** False for a stage-1 row read for scoring only (see STAGE_1): the picked one is read again whole. */
  complete: boolean;
};

/** A string's characters as code points: one entry per character, as `[...text]` counts them. */
function codePoints(text: string): Int32Array {
  const points = new Int32Array(text.length);
  let count = 0;
  for (const character of text) points[count++] = character.codePointAt(0) ?? 0;
  return count === text.length ? points : points.subarray(0, count);
}

// Three rows of the distance table, reused from search to search (the last three rows are all
// the recurrence reads): a search scores a few to a few hundred candidates, and a fresh table of
// arrays with a closure per cell read was ~3 % of a name search's answer under load.
let rowBuffers = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

function distanceOfPoints(x: Int32Array, y: Int32Array): number {
  const width = y.length + 1;
  if (width > (rowBuffers[0]?.length ?? 0)) rowBuffers = [new Int32Array(width), new Int32Array(width), new Int32Array(width)];
  let [beforePrevious, previous, current] = rowBuffers as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    const xi = x[i - 1] ?? 0;
    for (let j = 1; j < width; j++) {
      const yj = y[j - 1] ?? 0;
      const cost = xi === yj ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && xi === y[j - 2] && x[i - 2] === yj) best = Math.min(best, (beforePrevious[j - 2] ?? 0) + 1);
      current[j] = best;
    }
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[width - 1] ?? 0;
}

/** Edit distance with adjacent transpositions (optimal string alignment), over code points. */
export function editDistance(a: string, b: string): number {
  return distanceOfPoints(codePoints(a), codePoints(b));
}

/** 1 for equal keys, falling by the share of characters that must change. */
export function keySimilarity(a: string, b: string): number {
  if (a === b) return a.length > 0 ? 1 : 0;
  return similarityOfPoints(codePoints(a), codePoints(b));
}

function similarityOfPoints(x: Int32Array, y: Int32Array): number {
  const length = Math.max(x.length, y.length);
  return length === 0 ? 0 : 1 - distanceOfPoints(x, y) / length;
}

/**
 * keySimilarity(a, b) when it is at least `min`, else 0. The distance is at least the difference
 * in length, so most names of other lengths are set aside without computing it (a search scores
 * every candidate of a stage, a few to a few hundred).
 */
function similarityAtLeast(a: string, b: string, min: number): number {
  if (a === b) return a.length > 0 ? 1 : 0;
  const x = codePoints(a);
  const y = codePoints(b);
  const length = Math.max(x.length, y.length);
  if (length === 0 || 1 - Math.abs(x.length - y.length) / length < min) return 0;
  return similarityOfPoints(x, y);
}

/**
 * One key is whole words of the other: Domingo and Domingo-Ruiz, Okonkwo-Bell and Okonkwo
 * (keys have one space where the name had a hyphen). People drop or add a second family name.
 */
function onePartOf(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= LAST_NAME_PART_MIN_LENGTH && ` ${long} `.includes(` ${short} `);
}

const COMPANY_SUFFIX = /\b(?:inc|incorporated|ltd|limited|llc|llp|plc|corp|corporation|co|company|gmbh|ag|sa|sas|bv|group)\b/g;

function companyKey(value: string): string {
  return nameKey(value).replace(COMPANY_SUFFIX, ' ').replace(/\s+/g, ' ').trim();
}

/** Same company: equal after suffixes (Inc, Ltd, …) go, one inside the other, or a typo apart. */
function sameCompany(a: string, b: string): boolean {
  const x = companyKey(a);
  const y = companyKey(b);
  if (!x || !y) return false;
  return x === y || ` ${x} `.includes(` ${y} `) || ` ${y} `.includes(` ${x} `) || keySimilarity(x, y) >= 0.85;
}

/** Same place: the city (before the first comma) agrees; "Austin, TX" and "Austin, Texas" do. */
function samePlace(a: string, b: string): boolean {
  const city = (value: string) => nameKey(value.split(',')[0]);
  const x = city(a);
  const y = city(b);
  return x.length > 0 && (x === y || keySimilarity(x, y) >= 0.85);
}

export interface NameQuery {
  firstKey: string;
  lastKey: string;
  companyName: string | null;
  location: string | null;
}

/** How well one stored person fits the names asked for; null when they are not a candidate. */
export function scoreCandidate(query: NameQuery, candidate: Candidate, nicknames: NicknameTable = nicknameTable()): number | null {
  const first = candidate.first_key ?? '';
  const last = candidate.last_key ?? '';
  const firstScore = first === query.firstKey ? 1 : nicknames.get(query.firstKey)?.has(first) ? NICKNAME_SCORE : similarityAtLeast(query.firstKey, first, FIRST_NAME_MIN);
  if (firstScore < FIRST_NAME_MIN) return null;
  const lastScore = Math.max(similarityAtLeast(query.lastKey, last, LAST_NAME_MIN), onePartOf(query.lastKey, last) ? LAST_NAME_PART_SCORE : 0);
  if (lastScore < LAST_NAME_MIN) return null;
  let score = 0.4 * firstScore + 0.6 * lastScore;
  if (query.companyName && candidate.company_name) score += sameCompany(query.companyName, candidate.company_name) ? COMPANY_AGREES : COMPANY_DIFFERS;
  if (query.location && candidate.location) score += samePlace(query.location, candidate.location) ? LOCATION_AGREES : LOCATION_DIFFERS;
  return score;
}

/** The best candidate when it is good enough and clearly ahead of the next; else why not. */
export function pickCandidate(query: NameQuery, candidates: readonly Candidate[], nicknames?: NicknameTable): { candidate: Candidate; score: number } | 'none' | 'ambiguous' {
  const scored = candidates
    .map((candidate) => ({ candidate, score: scoreCandidate(query, candidate, nicknames) }))
    .filter((s): s is { candidate: Candidate; score: number } => s.score !== null && s.score >= MATCH_MIN - MATCH_MARGIN)
    .sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || best.score < MATCH_MIN) return 'none';
  if (second && best.score - second.score < MATCH_MARGIN) return 'ambiguous';
  return best;
}

// The estimate comes as text and is parsed only for the one person picked: a name search reads
// up to a few hundred candidates, and parsing every candidate's JSON was most of its time.
const CANDIDATE_COLUMNS = 'id, first_name, last_name, title, company_name, location, estimate::text AS estimate, verified, first_key, last_key, true AS complete';

/**
 * Candidates come in three stages, each cheaper than the next and tried only when the ones
 * before found no clear match: (1) the same last name (btree), with a first name that is equal,
 * a nickname, or starts with the same letter (a typo there); (2) a known first name or nickname
 * with a last name a few trigrams away (a typo in the last name); (3) trigram similarity over the
 * whole name (typos in both), through the gin index. An exact name found in stage 1 is not put
 * in doubt by near-spellings of it that only later stages would find. Each stage keeps its 200
 * closest rows, not any 200: a runner-up cut off at random would make an ambiguous name look clear.
 */
const STAGE_COUNT = 3;
const STAGE_1 = (names: string) => `SELECT ${stageOneColumns(`first_key IN (${names})`)} FROM people WHERE last_key = $2 AND (first_key IN (${names}) OR left(first_key, 1) = left($1, 1))
   ORDER BY first_key IN (${names}) DESC LIMIT 200`;

/**
 * Stage 1's rows whole only for the given name and its nicknames (the person a search almost
 * always picks); the others of the last name with the same initial are read as scoring needs
 * them (keys, company, place). Their estimates as text were most of the bytes PGlite wrote and
 * parsed for a search (8.5 rows a search over 100,000 people, one of them picked).
 */
function stageOneColumns(named: string): string {
  const onlyNamed = (column: string, as: string = column) => `CASE WHEN ${named} THEN ${column} END AS ${as}`;
  return `id, ${onlyNamed('first_name')}, ${onlyNamed('last_name')}, ${onlyNamed('title')}, company_name, location, ${onlyNamed('estimate::text', 'estimate')}, verified, first_key, last_key, ${named} AS complete`;
}
const STAGE_2 = statement('people_name_search_2', `SELECT ${CANDIDATE_COLUMNS} FROM people WHERE first_key = ANY($1::text[]) AND last_key % $2 ORDER BY similarity(last_key, $2) DESC LIMIT 200`);
const STAGE_3 = statement('people_name_search_3', `SELECT ${CANDIDATE_COLUMNS} FROM people WHERE name_key % $1 ORDER BY similarity(name_key, $1) DESC LIMIT 200`);

/**
 * Stage 1 takes the given name and its nicknames as a list of a fixed length (4, 8, 16…), the
 * given name repeated to fill it (a repeat matches nothing more). With an array of unknown length
 * PostgreSQL planned the statement anew at every run (its generic plan looked costlier than the
 * plans for the values given), and on the embedded database planning was about 40 % of a
 * search's time, most of it reading the size of each of the table's indexes. With a list of a
 * fixed length the generic plan is the same plan at the same cost: it is made once and kept.
 */
const stageOne = new Map<number, Statement>();

function slotsFor(firsts: readonly string[]): number {
  let slots = 4;
  while (slots < firsts.length) slots *= 2;
  return slots;
}

function stageStatement(stage: number, firsts: readonly string[]): Statement {
  if (stage === 1) return STAGE_2;
  if (stage === 2) return STAGE_3;
  const slots = slotsFor(firsts);
  let found = stageOne.get(slots);
  if (!found) {
    const names = Array.from({ length: slots }, (_, i) => `$${i + 3}`).join(', ');
    found = statement(`people_name_search_1_${slots}`, STAGE_1(names));
    stageOne.set(slots, found);
  }
  return found;
}

/** Each stage's parameters, in its own numbering. */
function stageParams(stage: number, firstKey: string, lastKey: string, firsts: string[]): unknown[] {
  if (stage === 0) return [firstKey, lastKey, ...firsts, ...Array.from({ length: slotsFor(firsts) - firsts.length }, () => firstKey)];
  if (stage === 1) return [firsts, lastKey];
  return [`${firstKey} ${lastKey}`];
}

/** Prepared statements (src/db/README.md): a search is a hot path, one to three lookups each. */
const BY_EMAIL = statement('people_search_by_email', `SELECT ${CANDIDATE_COLUMNS} FROM people WHERE email_normalized = $1`);
const BY_ID = statement('people_search_by_id', `SELECT ${CANDIDATE_COLUMNS} FROM people WHERE id = $1`);

function parseEstimate(value: TraitEstimate | string | null): TraitEstimate | null {
  return typeof value === 'string' ? (JSON.parse(value) as TraitEstimate) : value;
}

function toMatched(row: Candidate): MatchedPerson {
  return { id: row.id, firstName: row.first_name, lastName: row.last_name, title: row.title, estimate: parseEstimate(row.estimate), verified: row.verified };
}

export async function findMatch(db: Queryable, criteria: SearchCriteria): Promise<MatchResult> {
  const email = normalizeEmail(criteria.email);
  if (email) {
    const [row] = await db.run<Candidate>(BY_EMAIL, [email]);
    if (row) return { person: toMatched(row), by: 'email', score: 1 };
  }
  const firstKey = nameKey(criteria.firstName);
  const lastKey = nameKey(criteria.lastName);
  if (!firstKey || !lastKey) return { person: null, reason: email ? 'none' : 'no_criteria' };
  const firsts = [firstKey, ...nicknamesOf(firstKey)];
  const query = { firstKey, lastKey, companyName: criteria.companyName, location: criteria.location };
  const seen = new Map<string, Candidate>();
  let picked: ReturnType<typeof pickCandidate> = 'none';
  for (let stage = 0; stage < STAGE_COUNT; stage += 1) {
    for (const row of await db.run<Candidate>(stageStatement(stage, firsts), stageParams(stage, firstKey, lastKey, firsts))) seen.set(row.id, row);
    picked = pickCandidate(query, [...seen.values()]);
    // A clear match, or people who fit equally well: later stages would only add weaker ones.
    if (picked !== 'none') break;
  }
  if (picked === 'none' || picked === 'ambiguous') return { person: null, reason: picked };
  // A typo of the given name picked in stage 1: read whole now (gone since, then nobody).
  const [whole] = picked.candidate.complete ? [picked.candidate] : await db.run<Candidate>(BY_ID, [picked.candidate.id]);
  if (!whole) return { person: null, reason: 'none' };
  return { person: toMatched(whole), by: 'name', score: picked.score };
}
