import { readFileSync } from 'node:fs';

/**
 * Given names and their common short forms (src/people/data/nicknames.json): Bob and Robert
 * are one name to a name search. A short form shared by several names (Chris, Terry) counts for
 * each of them; the search's margin rule then decides whether one candidate stands out.
 */
export type NicknameTable = ReadonlyMap<string, ReadonlySet<string>>;

interface NicknameFile {
  groups: string[][];
}

function isNicknameFile(value: unknown): value is NicknameFile {
  if (typeof value !== 'object' || value === null || !('groups' in value)) return false;
  const groups: unknown = value.groups;
  return Array.isArray(groups) && groups.every((g) => Array.isArray(g) && g.every((n) => typeof n === 'string'));
}

export function buildNicknameTable(groups: readonly (readonly string[])[]): NicknameTable {
  const table = new Map<string, Set<string>>();
  for (const group of groups) {
    const names = group.map((n) => n.trim().toLowerCase()).filter((n) => n.length > 0);
    for (const name of names) {
      const set = table.get(name) ?? new Set<string>();
      for (const other of names) if (other !== name) set.add(other);
      table.set(name, set);
    }
  }
  return table;
}

let loaded: NicknameTable | null = null;

/** The committed table, read once (it is data, not state). */
export function nicknameTable(): NicknameTable {
  if (loaded) return loaded;
  const parsed: unknown = JSON.parse(readFileSync(new URL('./data/nicknames.json', import.meta.url), 'utf8'));
  if (!isNicknameFile(parsed)) throw new Error('src/people/data/nicknames.json: expected {"groups": [[name, …], …]}');
  loaded = buildNicknameTable(parsed.groups);
  return loaded;
}

/** The other spellings of a given name (already a name key: lower case, accents folded). */
export function nicknamesOf(firstKey: string, table: NicknameTable = nicknameTable()): string[] {
  return [...(table.get(firstKey) ?? [])];
}
