import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';

/**
 * The README is followed from a fresh clone, line by line: it stays short, every shell variable
 * its commands use is set by an earlier command, and every link it and docs/ hold leads to a
 * file (and heading) in the repository, never to something beside it.
 */
const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(path.join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  return blocks.flatMap((block) => block.split('\n')).filter((line) => line.trim() !== '');
}

/** Variables used before any earlier line set them (`$X`, `${X}`; `${X:-default}` has its own). */
function unsetVariables(lines: string[]): string[] {
  const set = new Set<string>();
  const unset: string[] = [];
  for (const line of lines) {
    const code = line.replace(/'[^']*'/g, "''").replace(/\s#.*$/, '');
    for (const match of code.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)(:-)?/g)) {
      const [, name, fallback] = match;
      if (name !== undefined && fallback === undefined && !set.has(name)) unset.push(name);
    }
    for (const match of code.matchAll(/(?:^|[\s;(])([A-Za-z_][A-Za-z0-9_]*)=/g)) if (match[1] !== undefined) set.add(match[1]);
  }
  return unset;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')));
}

/** Relative links that do not lead to an existing file in the repository, or to a heading in it. */
function brokenLinks(relative: string): string[] {
  const file = path.join(REPO_ROOT, relative);
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1] ?? '';
    if (/^[a-z]+:/.test(link)) continue;
    const [target = '', anchor] = link.split('#');
    const resolved = target === '' ? file : path.resolve(path.dirname(file), target);
    const inside = resolved.startsWith(REPO_ROOT + path.sep) && existsSync(resolved);
    const headed = anchor === undefined || !resolved.endsWith('.md') || (inside && anchorsIn(resolved).has(anchor));
    if (!inside || !headed) broken.push(link);
  }
  return broken;
}

describe('README.md', () => {
  it('stays under 200 lines', () => {
    expect(README.split('\n').length).toBeLessThan(200);
  });

  it('sets every variable its commands use before using it', () => {
    const lines = shellLines(README);
    expect(lines.length).toBeGreaterThan(20);
    expect(unsetVariables(lines)).toEqual([]);
  });

  it('finds a variable used before it is set (the check itself)', () => {
    expect(unsetVariables(['curl -H "Authorization: Bearer $TOKEN" $BASE/v1/usage', 'TOKEN=$(npx rapport tokens create)'])).toEqual(['TOKEN', 'BASE']);
    expect(unsetVariables(['BASE=http://localhost:${PORT:-8080}', "curl $BASE -d '{\"a\": \"$not_shell\"}'"])).toEqual([]);
  });
});

describe('links in README.md and docs/', () => {
  it.each(['README.md', ...DOCS])('%s links only to files and headings in the repository', (relative) => {
    expect(brokenLinks(relative)).toEqual([]);
  });

  it('reads GitHub anchors as GitHub writes them', () => {
    expect(anchorOf('Group B: the personality test and `/find`')).toBe('group-b-the-personality-test-and-find');
    expect(anchorOf('Several machines')).toBe('several-machines');
  });

  it('cite no design notes or contract kept outside the repository', () => {
    const files = ['README.md', ...DOCS];
    const outside = files.filter((relative) => /DESIGN\.md|interface\.md|\.\.\/shared\b/.test(readFileSync(path.join(REPO_ROOT, relative), 'utf8')));
    expect(outside).toEqual([]);
  });
});

describe('source comments', () => {
  // Where the training data came from (shared/data, in the model's data card) is a fact about the
  // model, not a citation of the design; the test data helpers own those paths.
  it('cite the map in docs/, not design notes or a contract beside the repository', () => {
    const citing: string[] = [];
    const walk = (relative: string): void => {
      for (const entry of readdirSync(path.join(REPO_ROOT, relative), { withFileTypes: true })) {
        const child = `${relative}/${entry.name}`;
        if (entry.isDirectory()) walk(child);
        else if (/\.(ts|mts|mjs|md)$/.test(entry.name) && /DESIGN\.md|interface\.md|shared\/spec/.test(readFileSync(path.join(REPO_ROOT, child), 'utf8'))) citing.push(child);
      }
    };
    walk('src');
    expect(citing).toEqual([]);
  });
});
