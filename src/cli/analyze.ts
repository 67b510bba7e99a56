import { open, readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import type { TextAnalysis } from '../personality/text/index.ts';
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

/** One line of batch output: what a spreadsheet or a pipeline needs, no advice prose. */
async function summarize(id: string, text: string) {
  const { analyzeText } = await import('../personality/text/index.ts');
  const { personalityView } = await import('../personality/views.ts');
  const result = analyzeText(text, { labelled: true });
  if (!result.ok) return { id, ok: false, reason: result.reason, ...(await wordsOfRejected(text, result)) };
  const view = personalityView(result.estimate);
  return {
    id,
    ok: true,
    words: result.estimate.wordCount,
    traits: result.estimate.scores,
    disc_type: view.disc_type,
    point: { x: round(view.point.x), y: round(view.point.y) },
    disc_intensity: view.disc_intensity,
    confidence: view.confidence,
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

async function textOfFile(file: string): Promise<string> {
  const bytes = await bytesOf(file);
  const { sniffPdf, PdfExtractor } = await import('../personality/pdf/index.ts');
  if (!sniffPdf(bytes)) return bytes.toString('utf8');
  const extractor = new PdfExtractor();
  try {
    const result = await extractor.extract(new Uint8Array(bytes));
    if (!result.ok) throw new AppError('bad_request', `Could not read ${file} as a PDF: ${result.reason}.`);
    return result.text;
  } finally {
    await extractor.close();
  }
}

/** The full analysis of one file, as the API would describe it, plus the numbers behind it. */
async function analyzeFile(file: string) {
  const text = await textOfFile(file);
  const { analyzeText } = await import('../personality/text/index.ts');
  const { describePersonality } = await import('../profiles/describe.ts');
  const result = analyzeText(text, { labelled: true, evidence: true });
  if (!result.ok) return { file, data: null, message: 'Content did not yield a personality', reason: result.reason, ...(await wordsOfRejected(text, result)) };
  const { view, content, estimate } = describePersonality(result.estimate);
  return {
    file,
    words: estimate.wordCount,
    model_version: estimate.modelVersion,
    personality: {
      disc_type: view.disc_type,
      point: { x: round(view.point.x), y: round(view.point.y) },
      disc_intensity: view.disc_intensity,
      disc_percentages: view.disc_percentages,
      archetype: view.archetype,
      myers_briggs_type: view.myers_briggs_type,
      enneagram_type: view.enneagram_type,
      confidence: view.confidence,
    },
    traits: estimate.scores,
    trait_confidence: estimate.confidence,
    evidence: estimate.evidence,
    content: { overview: content.overview, behavior: content.behavior, motivations: content.motivation, drains: content.drainer, communication: content.communication, meeting: content.meeting },
  };
}

/** The result of one batch line; every result, even for a line that is not JSON, carries an id. */
async function resultOfLine(line: string, lineNumber: number): Promise<Record<string, unknown>> {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return { id: batchId(undefined, lineNumber), line: lineNumber, ok: false, reason: 'invalid_json' };
  }
  const { id, text } = (typeof record === 'object' && record !== null ? record : {}) as { id?: unknown; text?: unknown };
  const key = batchId(id, lineNumber);
  return typeof text === 'string' ? summarize(key, text) : { id: key, ok: false, reason: 'missing_text' };
}

async function analyzeJsonl(file: string): Promise<void> {
  await checkReadable(file);
  // Opened before reading, so a file that cannot be opened fails with a sentence, not a stream error.
  const handle = await open(file).catch((error: unknown) => {
    throw cannotRead(file, error);
  });
  const lines = createInterface({ input: handle.createReadStream(), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (!line.trim()) continue;
    process.stdout.write(`${JSON.stringify(await resultOfLine(line, lineNumber))}\n`);
  }
}

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('predict a personality from a text or PDF file (no service or database needed)')
    .argument('[file]', 'a .txt or .pdf file')
    .option('--jsonl <file>', 'batch: read {"id","text"} per line, write one result per line')
    .addHelpText(
      'after',
      '\nBatch results: one JSON object per input line, with id, ok and words. When ok is true, also traits, disc_type,\n' +
        'point, disc_intensity, confidence and model_version. When it is false, reason says why; words counts the words\n' +
        'as written, and words_read the fewer ones left once resume labels are set aside, when that differs.\n' +
        'The id is always a string: the line\'s own id (a number is written as its digits), or "line N" (N its line\n' +
        'number) when the line has no id or is not JSON.',
    )
    .action(async (file: string | undefined, options: { jsonl?: string }) => {
      if (options.jsonl) return analyzeJsonl(options.jsonl);
      if (!file) throw new InvalidArgumentError('give a file to analyse, or --jsonl FILE');
      process.stdout.write(`${JSON.stringify(await analyzeFile(file), null, 2)}\n`);
    });
}
