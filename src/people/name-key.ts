/**
 * The key a name is searched by, the same function as the database's `rapport_name_key`
 * (src/db/migrations/006_connect.sql), which fills people.first_key, last_key and name_key:
 * lower case, common Latin accents and ligatures folded, separators made one space. Both are
 * spelled from the same tables below; test/people/name-search.test.ts checks they agree.
 */
const MULTI: ReadonlyArray<readonly [string, string]> = [
  ['ß', 'ss'],
  ['æ', 'ae'],
  ['œ', 'oe'],
  ['ø', 'o'],
  ['ł', 'l'],
  ['đ', 'd'],
  ['ı', 'i'],
  ['ð', 'd'],
];
const FROM = 'àáâãäåāăąçćčďèéêëēėęěğìíîïīįľĺñńňòóôõöōőŕřśšşșťțùúûüūůűųýÿžźż';
const TO = 'aaaaaaaaacccdeeeeeeeegiiiiiillnnnooooooorrssssttuuuuuuuuyyzzz';
const FOLD = new Map([...FROM].map((c, i) => [c, TO[i] ?? c]));
const SEPARATORS = /[\s'’.,_-]+/gu;
// Every letter folded above is outside ASCII: a key that is all ASCII once lower-cased has none.
const NOT_ASCII = /[^\x00-\x7f]/;

export function nameKey(value: string | null | undefined): string {
  let key = (value ?? '').toLowerCase();
  // Most names are plain ASCII: the eight replacements and the walk over each character (a name
  // search keys two to four names an answer) are skipped for them.
  if (NOT_ASCII.test(key)) {
    for (const [from, to] of MULTI) key = key.replaceAll(from, to);
    key = [...key].map((c) => FOLD.get(c) ?? c).join('');
  }
  return key.replace(SEPARATORS, ' ').trim();
}
