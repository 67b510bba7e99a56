import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/process.ts';
import { isDomain } from '../lint/layers-map.ts';

/**
 * docs/architecture.md is the map of src/: it stays true only if a new folder cannot be added,
 * or an old one renamed, without the map following.
 */
const MAP = readFileSync(path.join(REPO_ROOT, 'docs/architecture.md'), 'utf8');

function foldersOf(relative: string): string[] {
  return readdirSync(path.join(REPO_ROOT, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${relative}/${entry.name}/`)
    .sort();
}

/** Every `src/…` path the map names, as written (trailing punctuation of the sentence dropped). */
function pathsNamed(markdown: string): string[] {
  const found = markdown.match(/\bsrc\/[\w./-]*/g) ?? [];
  return [...new Set(found.map((named) => named.replace(/\.+$/, '')))].sort();
}

describe('docs/architecture.md', () => {
  it('names every folder of src/ and src/http/', () => {
    const folders = [...foldersOf('src'), ...foldersOf('src/http')];
    expect(folders.length).toBeGreaterThan(20);
    const missing = folders.filter((folder) => !MAP.includes(`\`${folder}\``));
    expect(missing).toEqual([]);
  });

  it('names every top-level file of src/, the composition root only where the layer map says so', () => {
    const files = readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => entry.name);
    expect(files).toContain('config-schema.ts');
    expect(files.filter((name) => !MAP.includes(`\`src/${name}\``))).toEqual([]);
    // The composition root's table lists edges only: a file the layer map places in the domain (config.ts) is not there.
    const root = MAP.slice(MAP.indexOf('### The composition root'), MAP.indexOf('### The HTTP edge'));
    const misplaced = files.filter((name) => isDomain(name) && root.includes(`\`src/${name}\``));
    expect(misplaced).toEqual([]);
  });

  it('names no path under src/ that does not exist', () => {
    const named = pathsNamed(MAP);
    expect(named).toContain('src/http/common/errors.ts');
    const absent = named.filter((relative) => !existsSync(path.join(REPO_ROOT, relative)));
    expect(absent).toEqual([]);
  });

  it('finds a path that is not there (the check itself)', () => {
    const named = pathsNamed('Requests go through `src/api/enterprise/` and src/http/common/auth.ts.');
    expect(named).toEqual(['src/api/enterprise/', 'src/http/common/auth.ts']);
    expect(named.filter((relative) => !existsSync(path.join(REPO_ROOT, relative)))).toEqual(['src/api/enterprise/']);
  });
});
