/**
 * The names bench/connect.ts gives the imported people (First123/Last123 would share most
 * trigrams and make every name a near-duplicate of every other): realistic given names × family
 * names, person n named nameOf(n). bench/connect-answers.ts searches the same names.
 */
import { readFileSync } from 'node:fs';

const groups = (JSON.parse(readFileSync(new URL('../src/people/data/nicknames.json', import.meta.url), 'utf8')) as { groups: string[][] }).groups;
// The first name of each nickname group (Robert, Elizabeth, …): two of them are never nicknames
// of each other, so a search for one is not made ambiguous by design.
export const GIVEN = [...new Set(groups.map((g) => g[0] ?? 'alex'))];
/** A nickname of each given name (Robert → Bob), where its group has one. */
export const NICKNAME_OF = new Map(groups.flatMap((g) => (g[0] && g[1] ? [[g[0], cap(g[1])] as const] : [])));
const STEMS = 'ash,bar,black,brad,brook,calder,carr,chad,clay,cole,dal,den,east,el,fair,fen,gar,gold,green,hal,hart,hay,holl,kings,lang,lind,mar,mill,mor,north,oak,pem,ral,red,ros,sel,stan,thorn,wal,west'.split(',');
const ENDS = 'ford,field,ton,wood,ley,by,well,worth,more,stead,brook,ridge,dale,hurst,wick,mont,son,man'.split(',');
export const FAMILY = STEMS.flatMap((s) => ENDS.map((e) => s + e));

export function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function nameOf(n: number): { first: string; last: string } {
  return { first: cap(GIVEN[n % GIVEN.length] ?? 'Alex'), last: cap(FAMILY[Math.floor(n / GIVEN.length) % FAMILY.length] ?? 'Ashford') };
}
