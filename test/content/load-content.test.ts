import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { CONTENT_DIR, ContentError, loadContent } from '../../src/content/load-content.ts';
import { startService } from '../../src/server.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Sets (or, for undefined, removes) the value at a JSON pointer. */
function setAt(root: unknown, pointer: string, value: unknown): void {
  const keys = pointer.split('/').slice(1);
  const last = keys.pop() ?? '';
  let node = root;
  for (const key of keys) node = (node as Record<string, unknown>)[key];
  const parent = node as Record<string, unknown>;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

/** A copy of the shipped content with one file changed at these pointers. */
function brokenCopy(file: string, edits: [string, unknown][]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rapport-content-'));
  made.push(dir);
  cpSync(CONTENT_DIR, dir, { recursive: true, filter: (source) => !source.endsWith('.ts') && !source.endsWith('.md') });
  const target = path.join(dir, file);
  const data: unknown = JSON.parse(readFileSync(target, 'utf8'));
  for (const [pointer, value] of edits) setAt(data, pointer, value);
  writeFileSync(target, JSON.stringify(data));
  return dir;
}

function problemOf(dir: string): string {
  try {
    loadContent(dir);
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return (error as Error).message;
  }
  throw new Error('the broken copy loaded');
}

describe('loading the content', () => {
  it('loads the shipped files into one typed object', () => {
    const content = loadContent();
    expect(content.phrases.sections.behavior.length).toBeGreaterThan(50);
    expect(content.summaries.length).toBeGreaterThan(10);
    expect(content.relationship.needs.length).toBe(40);
    expect(Object.keys(content.messaging.sender)).toEqual(['D', 'I', 'S', 'C']);
    expect(content.emails.situations.length).toBeGreaterThanOrEqual(5);
    expect(content.takerResult.styles.D.strengths.length).toBeGreaterThanOrEqual(4);
  });

  // One broken copy per kind of file: the schema's problem, with the file's path and the JSON pointer.
  it.each([
    ['phrases/behavior.json', [['/2/angle', 400]], '/2/angle: must be <= 360'],
    ['phrases/section_overview.json', [['/0/section', 'lunch']], '/0/section: must be one of emailing'],
    ['phrases/summary.json', [['/1/text', undefined]], '/1/text: is missing'],
    ['relationship/needs.json', [['/3/topic', 'weather']], '/3/topic: must be one of change, communication'],
    ['relationship/dynamics.json', [['/0/pair', 'DX']], '/0/pair: must be one of DD, II'],
    ['relationship/overview.json', [['/0/kind', 'weather']], '/0: matches none of the allowed forms'],
    ['messaging/advice.json', [['/greeting', undefined]], '/greeting: is missing'],
    ['messaging/sender.json', [['/D/shouting', 'Loud.']], '/D/shouting: is not a field this file has'],
    ['messaging/habits.json', [['/hedge/min', 1]], '/hedge/min: must be >= 2'],
    ['messaging/notes.json', [['/tentative', undefined]], '/tentative: is missing'],
    ['emails/templates.json', [['/situations/0/text/D', ['Hi {name},']]], '/situations/0/text/D: must not have fewer than 3 items'],
    ['taker/result.json', [['/styles/I/strengths', []]], '/styles/I/strengths: must not have fewer than 4 items'],
  ] as [string, [string, unknown][], string][])('%s: a broken copy stops loading with its path and problem', (file, edits, problem) => {
    const dir = brokenCopy(file, edits);
    const message = problemOf(dir);
    expect(message).toContain(`${path.join(dir, file)} at ${problem}`);
  });

  it('names a file that is not JSON', () => {
    const dir = brokenCopy('messaging/notes.json', [['/tentative', undefined]]);
    writeFileSync(path.join(dir, 'messaging/notes.json'), '{ "tentative": ');
    expect(problemOf(dir)).toContain(`${path.join(dir, 'messaging/notes.json')}: not valid JSON`);
  });

  // What a schema cannot say is checked at the same load: templates, hedges, ids across files.
  it.each([
    ['relationship/needs.json', [['/0/text', 'Hello {nobody}.']], 'placeholder {nobody} not allowed here'],
    ['phrases/drainer.json', [['/0/id', 'drainer-901'], ['/1/id', 'behavior-001']], 'id must look like "drainer-001"'],
    ['phrases/do.json', [['/0/id', 'do-901'], ['/1/id', 'do-901']], 'is already used in phrases/do.json'],
    ['messaging/habits.json', [['/hedge/text', 'You hedge a lot.']], 'say what the draft shows ({count})'],
    ['emails/templates.json', [['/situations/0/text/D/0', 'Hello,']], 'the first line must greet {name}'],
    ['taker/result.json', [['/styles/D/strengths/0/text', 'This person is quick.']], 'speaks of the taker in the third person'],
  ] as [string, [string, unknown][], string][])('%s: a named check stops loading with its path and problem', (file, edits, problem) => {
    const dir = brokenCopy(file, edits);
    const message = problemOf(dir);
    expect(message).toContain(path.join(dir, file));
    expect(message).toContain(problem);
  });

  it('stops the service start with the same message, before anything opens', async () => {
    const dir = brokenCopy('relationship/needs.json', [['/3/topic', 'weather']]);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rapport-data-'));
    made.push(dataDir);
    const config = loadConfig({ LOG_LEVEL: 'silent', RAPPORT_DATA_DIR: dataDir, RAPPORT_DEMO_DATA: 'false' });
    await expect(startService(config, { contentDir: dir })).rejects.toThrow(`${path.join(dir, 'relationship/needs.json')} at /3/topic: must be one of change`);
  });
});
