import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { AppError } from '../shared/errors.ts';

/** One line of batch output: what a spreadsheet or a pipeline needs, no advice prose. */
async function summarize(id: unknown, text: string) {
  const { analyzeText } = await import('../personality/text/index.ts');
  const { personalityView } = await import('../personality/views.ts');
  const result = analyzeText(text, { labelled: true });
  if (!result.ok) return { id, ok: false, reason: result.reason, words: result.wordCount };
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

async function textOfFile(file: string): Promise<string> {
  const bytes = await readFile(file);
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
  if (!result.ok) return { file, data: null, message: 'Content did not yield a personality', reason: result.reason, words: result.wordCount };
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

async function analyzeJsonl(file: string): Promise<void> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      process.stdout.write(`${JSON.stringify({ line: lineNumber, ok: false, reason: 'invalid_json' })}\n`);
      continue;
    }
    const { id, text } = (record ?? {}) as { id?: unknown; text?: unknown };
    const out = typeof text === 'string' ? await summarize(id ?? lineNumber, text) : { id: id ?? lineNumber, ok: false, reason: 'missing_text' };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('predict a personality from a text or PDF file (no service or database needed)')
    .argument('[file]', 'a .txt or .pdf file')
    .option('--jsonl <file>', 'batch: read {"id","text"} per line, write one result per line')
    .action(async (file: string | undefined, options: { jsonl?: string }) => {
      if (options.jsonl) return analyzeJsonl(options.jsonl);
      if (!file) throw new InvalidArgumentError('give a file to analyse, or --jsonl FILE');
      process.stdout.write(`${JSON.stringify(await analyzeFile(file), null, 2)}\n`);
    });
}
