import { open, readFile } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import type { PdfFailureReason } from '../personality/pdf/index.ts';
import type { RejectionReason, TextAnalysis, TextModel, TextType } from '../personality/text/index.ts';
import type { SourceRecord } from '../people/readers.ts';
import { AppError } from '../shared/errors.ts';
import { cannotRead, checkReadable } from './files.ts';

/**
 * The word counts of a rejected text: `words` as written, and `words_read` when the labelled
 * reading kept fewer. That reading sets short lines without a full stop aside as form labels, so
 * its own count alone is 0 for a short note and would hide what was sent.
 */
async function wordsOfRejected(text: string, result: Extract<TextAnalysis, { ok: false }>): Promise<{ words: number; words_read?: number }> {
  const { tokenizeProse } = await import('../personality/text/markup.ts');
  const written = tokenizeProse(text).words.length;
  return written > result.wordCount ? { words: written, words_read: result.wordCount } : { words: result.wordCount };
}

/**
 * The id of a batch result is always a string, so a spreadsheet column or a join key keeps one
 * type: the record's own id (a number becomes its digits), or "line N" when it has none.
 */
function batchId(id: unknown, lineNumber: number): string {
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return `line ${lineNumber}`;
}

/**
 * The reason code the HTTP API gives for the same text (analyzeSubmittedText prefixes it the
 * same way), so a script can treat CLI and API answers alike.
 */
function textReason(reason: RejectionReason): string {
  return `text_${reason}`;
}

/** One line of batch output: what a spreadsheet or a pipeline needs, no advice prose. */
async function summarize(model: TextModel, id: string, line: number, text: string, textType: TextType | undefined) {
  const { analyzeText } = await import('../personality/text/index.ts');
  const { personalityView } = await import('../personality/views.ts');
  const result = analyzeText(text, { model, textType });
  if (!result.ok) return { id, line, ok: false, reason: textReason(result.reason), ...(await wordsOfRejected(text, result)) };
  const view = personalityView(result.estimate);
  return {
    id,
    line,
    ok: true,
    words: result.estimate.wordCount,
    traits: result.estimate.scores,
    disc_type: view.discType,
    point: { x: round(view.point.x), y: round(view.point.y) },
    disc_intensity: view.discIntensity,
    confidence: view.confidence,
    read_as: result.estimate.genre ?? 'personal',
    model_version: result.estimate.modelVersion,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

async function bytesOf(file: string): Promise<Buffer> {
  await checkReadable(file);
  try {
    return await readFile(file);
  } catch (error) {
    throw cannotRead(file, error);
  }
}

type FileText = { ok: true; text: string } | { ok: false; reason: PdfFailureReason };

/**
 * The text of a .txt or .pdf file. A PDF that opens but cannot be read (encrypted, cut short, too
 * big) is an answer about its content, as over HTTP, not a failure of the command.
 */
async function textOfFile(file: string): Promise<FileText> {
  const bytes = await bytesOf(file);
  const { sniffPdf, PdfExtractor } = await import('../personality/pdf/index.ts');
  if (!sniffPdf(bytes)) return { ok: true, text: bytes.toString('utf8') };
  const extractor = new PdfExtractor();
  try {
    const result = await extractor.extract(new Uint8Array(bytes));
    return result.ok ? { ok: true, text: result.text } : { ok: false, reason: result.reason };
  } finally {
    await extractor.close();
  }
}

/** The contract's no-personality answer (what HTTP sends), with the file it is about. */
async function noPersonality(file: string, reason: string) {
  const { NO_PERSONALITY_MESSAGE } = await import('../analysis/analyses.ts');
  return { file, data: null, message: NO_PERSONALITY_MESSAGE, reason };
}

/** The full analysis of one file, as the API would describe it, plus the numbers behind it. */
async function analyzeFile(model: TextModel, file: string, textType: TextType | undefined) {
  const read = await textOfFile(file);
  if (!read.ok) return noPersonality(file, `pdf_${read.reason}`);
  const { text } = read;
  const { analyzeText } = await import('../personality/text/index.ts');
  const { describePersonality } = await import('../content/describe.ts');
  // One file per run: its content is read and checked here, once, as the service does at start-up.
  const { loadContent } = await import('../content/load-content.ts');
  const result = analyzeText(text, { evidence: true, model, textType });
  if (!result.ok) return { ...(await noPersonality(file, textReason(result.reason))), ...(await wordsOfRejected(text, result)) };
  const { view, content, estimate } = describePersonality(loadContent().phrases, result.estimate);
  return {
    file,
    words: estimate.wordCount,
    model_version: estimate.modelVersion,
    personality: {
      disc_type: view.discType,
      point: { x: round(view.point.x), y: round(view.point.y) },
      disc_intensity: view.discIntensity,
      disc_percentages: view.discPercentages,
      archetype: view.archetype,
      myers_briggs_type: view.myersBriggsType,
      enneagram_type: view.enneagramType,
      confidence: view.confidence,
    },
    read_as: estimate.genre ?? 'personal',
    traits: estimate.scores,
    trait_confidence: estimate.confidence,
    evidence: estimate.evidence,
    style_evidence: estimate.styleEvidence ?? [],
    content: { overview: content.overview, behavior: content.behavior, motivations: content.motivation, drains: content.drainer, communication: content.communication, meeting: content.meeting },
  };
}

/** How a batch line ended, counted for the summary: analysed (with or without a personality) or not read. */
type Outcome = 'personality' | 'no_personality' | 'invalid_json' | 'unreadable';

interface LineResult {
  outcome: Outcome;
  output: Record<string, unknown>;
}

function unreadLine(id: string, line: number, reason: string): LineResult {
  return { outcome: reason === 'invalid_json' ? 'invalid_json' : 'unreadable', output: { id, line, ok: false, reason } };
}

/**
 * The result of one batch line. Every result, even for a line that is not JSON, carries an id and
 * its line number, so results can always be matched back to the input.
 */
async function resultOfLine(model: TextModel, item: SourceRecord, textType: TextType | undefined): Promise<LineResult> {
  if ('error' in item) return unreadLine(batchId(undefined, item.line), item.line, item.problem);
  const { id, text, text_type: lineType } = item.record as { id?: unknown; text?: unknown; text_type?: unknown };
  const key = batchId(id, item.line);
  if (text === undefined) return unreadLine(key, item.line, 'missing_text');
  // Not turned into a string: {"text": 12345} is a mistake upstream, as the API's 400 says too.
  if (typeof text !== 'string') return unreadLine(key, item.line, 'text_not_string');
  if (lineType !== undefined && !isTextType(lineType)) return unreadLine(key, item.line, 'text_type_invalid');
  const output = await summarize(model, key, item.line, text, lineType ?? textType);
  return { outcome: output.ok ? 'personality' : 'no_personality', output };
}

/**
 * A file whose first lines are all not JSON is not JSON Lines (a PDF or a plain text given to
 * --jsonl by mistake): past this many, the run stops rather than print a result per line of it.
 */
const NOT_JSONL_AFTER = 20;

type Counts = Record<Outcome, number>;

/** Writes one result per non-blank line and counts the outcomes; leading invalid lines are held back until a line parses. */
async function writeBatchResults(model: TextModel, file: string, items: AsyncIterable<SourceRecord>, textType: TextType | undefined): Promise<Counts> {
  const counts: Counts = { personality: 0, no_personality: 0, invalid_json: 0, unreadable: 0 };
  let held: string[] | undefined = [];
  for await (const item of items) {
    const { outcome, output } = await resultOfLine(model, item, textType);
    counts[outcome] += 1;
    const json = `${JSON.stringify(output)}\n`;
    if (held && outcome === 'invalid_json') {
      held.push(json);
      if (held.length >= NOT_JSONL_AFTER) throw new AppError('bad_request', `${file} does not look like JSON Lines (one JSON object per line).`);
      continue;
    }
    if (held) process.stdout.write(held.join(''));
    held = undefined;
    process.stdout.write(json);
  }
  if (held) process.stdout.write(held.join(''));
  return counts;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** One line on stderr, so a run with bad lines never looks clean while stdout stays pure JSON Lines. */
function summaryOf(counts: Counts): string {
  const analysed = counts.personality + counts.no_personality;
  const unread = counts.invalid_json + counts.unreadable;
  return `rapport: ${plural(analysed, 'line')} analysed (${counts.no_personality} without a personality), ${unread} could not be read.\n`;
}

async function analyzeJsonl(model: TextModel, file: string, textType: TextType | undefined): Promise<void> {
  await checkReadable(file);
  // Opened before reading, so a file that cannot be opened fails with a sentence, not a stream error.
  const handle = await open(file).catch((error: unknown) => {
    throw cannotRead(file, error);
  });
  const input = handle.createReadStream();
  let counts: Counts;
  try {
    const { readJsonLines } = await import('../people/readers.ts');
    counts = await writeBatchResults(model, file, readJsonLines(input), textType);
  } finally {
    // Closes the file too when the run stopped early.
    input.destroy();
  }
  process.stderr.write(summaryOf(counts));
  if (counts.personality + counts.no_personality === 0) {
    throw new AppError('bad_request', `No line of ${file} could be read: each line must be a JSON object with a "text" string.`);
  }
}

/**
 * The model RAPPORT_TEXT_MODEL names (the committed one by default), as the service would
 * load it; only that variable is read, since this command needs no service or database.
 */
async function configuredModel(): Promise<TextModel> {
  const { readTextModelPath } = await import('../config.ts');
  const { loadTextModel } = await import('../context.ts');
  return loadTextModel({ textModelPath: readTextModelPath(process.env, process.cwd()) });
}

const TEXT_TYPE_VALUES: readonly string[] = ['email', 'various', 'bio', 'resume'];

function isTextType(value: unknown): value is TextType {
  return typeof value === 'string' && TEXT_TYPE_VALUES.includes(value);
}

function parseTextType(value: string): TextType {
  if (!isTextType(value)) throw new InvalidArgumentError('must be one of email, various, bio, resume');
  return value;
}

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('predict a personality from a text or PDF file (no service or database needed)')
    .argument('[file]', 'a .txt or .pdf file')
    .option('--jsonl <file>', 'batch: read {"id","text"} per line (optionally "text_type"), write one result per line')
    .option('--text-type <type>', 'what the text is: email, various, bio or resume (default: told from the text)', parseTextType)
    .addHelpText(
      'after',
      '\nA file that yields no personality (too little text, or a PDF that cannot be read) prints\n' +
        '{"data": null, "message", "reason"} as the HTTP API answers it, with the same reason codes: text_too_short,\n' +
        'text_junk, text_unsupported_language, or pdf_encrypted, pdf_unreadable, pdf_too_many_pages, pdf_too_large,\n' +
        'pdf_timeout. It exits 0; a file that does not exist or cannot be opened exits 1.\n' +
        '\nBatch results: one JSON object per non-blank input line, with id, line (its 1-based line number), ok and\n' +
        'words. When ok is true, also traits, disc_type, point, disc_intensity, confidence, read_as (the kind of\n' +
        'writing it was read as: email, profile, bio, resume or personal) and model_version. When it\n' +
        'is false, reason says why: one of the text_ codes above, with words counting the words as written and\n' +
        'words_read the fewer ones left once resume labels are set aside, when that differs; or, for a line that\n' +
        'could not be read, invalid_json, not_an_object, line_too_long (over 1,000,000 characters), missing_text,\n' +
        'text_not_string or text_type_invalid.\n' +
        'The id is always a string: the line\'s own id (a number is written as its digits), or "line N" (N its line\n' +
        'number) when the line has no id or is not JSON.\n' +
        'A summary of the run goes to stderr. The exit code is 1 when no line could be read at all.',
    )
    .action(async (file: string | undefined, options: { jsonl?: string; textType?: TextType }) => {
      if (options.jsonl !== undefined && file !== undefined) throw new InvalidArgumentError('give either a FILE or --jsonl, not both');
      if (options.jsonl === undefined && !file) throw new InvalidArgumentError('give a file to analyse, or --jsonl FILE');
      const model = await configuredModel();
      if (options.jsonl !== undefined) return analyzeJsonl(model, options.jsonl, options.textType);
      if (file) process.stdout.write(`${JSON.stringify(await analyzeFile(model, file, options.textType), null, 2)}\n`);
    });
}
