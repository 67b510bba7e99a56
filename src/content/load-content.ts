/**
 * All of Rapport's content (the phrase library, the relationship, message and email advice, the
 * taker's result page), read once at start-up into one typed object that the context carries.
 *
 * Each file is checked against its schema (content-schemas.ts), then by the named checks a schema
 * cannot express (templates, hedges, repeats, ids across files). Any problem stops the start with
 * the file's path and, for the schema, the JSON pointer of what does not fit: a broken file is
 * found by whoever edits it, not by the first request that reads it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from 'typebox';
import Value from 'typebox/value';
import { Compile } from 'typebox/compile';
import {
  AdviceFileSchema,
  DynamicsFileSchema,
  EmailTemplatesFileSchema,
  HabitsFileSchema,
  MessagingNotesFileSchema,
  NeedsFileSchema,
  OverviewFileSchema,
  PhraseFileSchema,
  SectionOverviewFileSchema,
  SenderFileSchema,
  TakerResultFileSchema,
} from './content-schemas.ts';
import { phraseProblems, SECTION_OVERVIEW_FILE, SECTIONS, type Phrase, type PhraseLibrary, type Section, type SectionOverviewPhrase } from './phrases.ts';
import { validateRelationshipLibrary, type RelationshipLibrary } from './relationship/library.ts';
import { messagingLibraryProblems, type MessagingLibrary } from './connect/messaging-library.ts';
import { emailLibraryFromFile, emailLibraryProblems, type EmailLibrary } from './connect/emails.ts';
import { parseTakerResultContent, TakerResultContentError, type TakerResultContent } from './taker/result.ts';

/** Everything the composers read, checked and frozen. */
export interface Content {
  /** The profile sections and C2's block overviews (phrases/*.json). */
  phrases: PhraseLibrary;
  /** C2's one-line overviews (phrases/summary.json). */
  summaries: readonly Phrase[];
  /** C3 (relationship/*.json). */
  relationship: RelationshipLibrary;
  /** C4 (messaging/*.json). */
  messaging: MessagingLibrary;
  /** C5 (emails/templates.json). */
  emails: EmailLibrary;
  /** What the result page and its PDF say to the taker (taker/result.json). */
  takerResult: TakerResultContent;
}

/** The content shipped with Rapport: this folder. */
export const CONTENT_DIR = fileURLToPath(new URL('./', import.meta.url));

export interface ContentProblem {
  /** The file, as given to the loader (under its content folder). */
  file: string;
  /** JSON pointer into the file; empty for the whole file or where the check names the entry itself. */
  pointer: string;
  problem: string;
}

export class ContentError extends Error {
  constructor(readonly problems: readonly ContentProblem[]) {
    const lines = problems.slice(0, 20).map((p) => `  ${p.file}${p.pointer === '' ? '' : ` at ${p.pointer}`}: ${p.problem}`);
    if (problems.length > 20) lines.push(`  … and ${problems.length - 20} more`);
    super(`Content is not valid (${problems.length} problem${problems.length === 1 ? '' : 's'}); fix the file and start again:\n${lines.join('\n')}`);
    this.name = 'ContentError';
  }
}

// Phrase files share one schema: compiled once per schema object, not once per file. The schemas
// are module constants, so a WeakMap keyed by them holds nothing that could go stale.
const compiledSchemas = new WeakMap<TSchema, ReturnType<typeof Compile>>();

function compiled(schema: TSchema): ReturnType<typeof Compile> {
  let validator = compiledSchemas.get(schema);
  if (validator === undefined) {
    validator = Compile(schema);
    compiledSchemas.set(schema, validator);
  }
  return validator;
}

/** One line per place that does not fit, in words a writer of content can act on. */
export function schemaProblems(schema: TSchema, data: unknown): { pointer: string; problem: string }[] {
  // Checking is quick; listing the errors walks every branch, so only a file that fails pays for it.
  // Compiled, the check of the shipped content takes half the CPU of Value.Check's (~0.25 s less
  // at each start), the compiling included.
  if (compiled(schema).Check(data)) return [];
  const found = new Map<string, string>();
  // A union's branches each fail on their own: one line, at the value the union is about, says it better.
  const unions = new Map<string, string>();
  for (const error of Value.Errors(schema, data)) {
    const union = error.schemaPath.lastIndexOf('/anyOf/');
    if (union >= 0 || error.keyword === 'anyOf') {
      const key = union >= 0 ? error.schemaPath.slice(0, union) : error.schemaPath;
      const at = unions.get(key);
      unions.set(key, at === undefined ? error.instancePath : commonPointer(at, error.instancePath));
      continue;
    }
    if (error.keyword === 'boolean') continue;
    const params = error.params as Record<string, unknown>;
    let pointer = error.instancePath;
    let problem = error.message;
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) problem = `must be one of ${params.allowedValues.map(String).join(', ')}`;
    else if (error.keyword === 'const') problem = `must be ${JSON.stringify(params.allowedValue)}`;
    else if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      for (const key of params.requiredProperties) found.set(`${pointer}/${String(key)}`, 'is missing');
      continue;
    } else if (error.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const key of params.additionalProperties) found.set(`${pointer}/${String(key)}`, 'is not a field this file has');
      continue;
    }
    if (pointer === '') pointer = '/';
    if (!found.has(pointer)) found.set(pointer, problem);
  }
  for (const pointer of unions.values()) if (!found.has(pointer || '/')) found.set(pointer || '/', 'matches none of the allowed forms (see src/content/content-schemas.ts)');
  return [...found].map(([pointer, problem]) => ({ pointer, problem }));
}

/** The pointer both pointers lie under. */
function commonPointer(a: string, b: string): string {
  const left = a.split('/');
  const right = b.split('/');
  let same = 0;
  while (same < left.length && left[same] === right[same]) same++;
  return left.slice(0, same).join('/');
}

/** One phrase file's problems, as the loader finds them: its schema first, then the phrase checks. */
export function phraseFileProblems(name: string, data: unknown): { pointer: string; problem: string }[] {
  const shape = schemaProblems(name === SECTION_OVERVIEW_FILE ? SectionOverviewFileSchema : PhraseFileSchema, data);
  // The schema passed, so the entries are phrases.
  return shape.length > 0 ? shape : phraseProblems(name, data as Phrase[]);
}

/** Reads every content file under `dir` (the shipped content by default). Throws ContentError listing every problem. */
export function loadContent(dir: string = CONTENT_DIR): Content {
  const problems: ContentProblem[] = [];
  const label = (relative: string) => displayPath(path.join(dir, relative));
  // The schemas spell out what the domain types say; a file that passes its schema has that type.
  const read: Reader = <T>(relative: string, schema: TSchema): T | null => {
    const file = label(relative);
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path.join(dir, relative), 'utf8'));
    } catch (error) {
      const reason = error instanceof SyntaxError ? `not valid JSON (${error.message})` : error instanceof Error ? error.message : String(error);
      problems.push({ file, pointer: '', problem: reason });
      return null;
    }
    const found = schemaProblems(schema, data);
    problems.push(...found.map((p) => ({ file, ...p })));
    return found.length === 0 ? (data as T) : null;
  };
  /** A named check's lines, each naming its entry already. */
  const named = (relative: string, lines: readonly string[]) => problems.push(...lines.map((problem) => ({ file: label(relative), pointer: '', problem })));

  const phrases = readPhrases(read, problems, label);
  const raw = {
    needs: read<unknown[]>('relationship/needs.json', NeedsFileSchema),
    dynamics: read<unknown[]>('relationship/dynamics.json', DynamicsFileSchema),
    overview: read<unknown[]>('relationship/overview.json', OverviewFileSchema),
  };
  let relationship: RelationshipLibrary | null = null;
  if (raw.needs && raw.dynamics && raw.overview) {
    const checked = validateRelationshipLibrary(raw);
    for (const line of checked.problems) named(`relationship/${line.slice(0, line.indexOf('.json'))}.json`, [line.slice(line.indexOf(' ') + 1)]);
    relationship = checked.library;
  }
  const messagingRaw = {
    advice: read<MessagingLibrary['advice']>('messaging/advice.json', AdviceFileSchema),
    sender: read<MessagingLibrary['sender']>('messaging/sender.json', SenderFileSchema),
    notes: read<MessagingLibrary['notes']>('messaging/notes.json', MessagingNotesFileSchema),
    habits: read<MessagingLibrary['habits']>('messaging/habits.json', HabitsFileSchema),
  };
  let messaging: MessagingLibrary | null = null;
  if (messagingRaw.advice && messagingRaw.sender && messagingRaw.notes && messagingRaw.habits) {
    const library = { advice: messagingRaw.advice, sender: messagingRaw.sender, notes: messagingRaw.notes, habits: messagingRaw.habits };
    for (const line of messagingLibraryProblems(library)) named(`messaging/${line.slice(0, line.indexOf('.json'))}.json`, [line.slice(line.indexOf(' ') + 1)]);
    messaging = library;
  }
  const emailsFile = read<Record<string, unknown>>('emails/templates.json', EmailTemplatesFileSchema);
  if (emailsFile) named('emails/templates.json', emailLibraryProblems(emailsFile));
  const emails: EmailLibrary | null = emailsFile ? emailLibraryFromFile(emailsFile) : null;
  const takerRaw = read<unknown>('taker/result.json', TakerResultFileSchema);
  let takerResult: TakerResultContent | null = null;
  if (takerRaw) {
    try {
      takerResult = parseTakerResultContent(takerRaw);
    } catch (error) {
      if (!(error instanceof TakerResultContentError)) throw error;
      named('taker/result.json', error.problems);
    }
  }
  if (problems.length > 0 || !phrases || !relationship || !messaging || !emails || !takerResult) throw new ContentError(problems);
  return Object.freeze({ phrases: phrases.library, summaries: phrases.summaries, relationship, messaging, emails, takerResult });
}

type Reader = <T>(relative: string, schema: TSchema) => T | null;

/** The phrase files: each against its schema, then the phrase checks, then ids unique across all of them. */
function readPhrases(read: Reader, problems: ContentProblem[], label: (relative: string) => string): { library: PhraseLibrary; summaries: readonly Phrase[] } | null {
  const seen = new Map<string, string>();
  let complete = true;
  const collect = <P extends Phrase>(name: string, entries: P[] | null): readonly P[] => {
    const relative = `phrases/${name}.json`;
    if (entries === null) {
      complete = false;
      return [];
    }
    problems.push(...phraseProblems(name, entries).map((p) => ({ file: label(relative), ...p })));
    entries.forEach((phrase, index) => {
      const first = seen.get(phrase.id);
      if (first !== undefined) problems.push({ file: label(relative), pointer: `/${index}/id`, problem: `${phrase.id} is already used in ${first}` });
      seen.set(phrase.id, relative);
    });
    return Object.freeze(entries.map((phrase) => Object.freeze(phrase)));
  };
  const sections = Object.fromEntries(SECTIONS.map((s) => [s, collect(s, read<Phrase[]>(`phrases/${s}.json`, PhraseFileSchema))])) as Record<Section, readonly Phrase[]>;
  const sectionOverviews: readonly SectionOverviewPhrase[] = collect(SECTION_OVERVIEW_FILE, read<SectionOverviewPhrase[]>(`phrases/${SECTION_OVERVIEW_FILE}.json`, SectionOverviewFileSchema));
  const summaries = collect('summary', read<Phrase[]>('phrases/summary.json', PhraseFileSchema));
  if (!complete) return null;
  return { library: Object.freeze({ sections: Object.freeze(sections), sectionOverviews }), summaries };
}

/** The path as a person at this shell would type it: relative to the working directory where that is shorter. */
function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
