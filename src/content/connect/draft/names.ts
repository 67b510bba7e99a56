/**
 * Whether a name in a greeting is the reader's first name: the same name whatever its case or
 * accents (Zoe, Zoë), a short form that begins it (Alex, Alexandra; Chris, Christopher), or a
 * common English nickname (Kate, Katherine; Bob, Robert). Generous on purpose: a wrong-name note
 * on the reader's own nickname would be worse than missing one.
 */

const NICKNAMES: readonly (readonly string[])[] = [
  ['katherine', 'catherine', 'kathryn', 'katharine', 'kate', 'katie', 'kat', 'kathy', 'cathy', 'kay'],
  ['robert', 'rob', 'bob', 'bobby', 'robbie', 'bert'],
  ['william', 'will', 'bill', 'billy', 'liam', 'willy'],
  ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'eliza', 'libby', 'lisa'],
  ['michael', 'mike', 'mick', 'mikey', 'micky'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['richard', 'rick', 'rich', 'dick', 'ricky', 'richie'],
  ['anthony', 'antony', 'tony'],
  ['stephen', 'steven', 'steve', 'stevie'],
  ['margaret', 'maggie', 'meg', 'peggy', 'marge', 'greta'],
  ['rebecca', 'becky', 'becca', 'bex'],
  ['alexander', 'alexandra', 'alex', 'sasha', 'sandy', 'lexi', 'xander'],
  ['edward', 'ed', 'eddie', 'ted', 'teddy', 'ned'],
  ['john', 'jack', 'johnny', 'jon'],
  ['henry', 'harry', 'hank', 'hal'],
  ['charles', 'charlie', 'chuck', 'chas'],
  ['andrew', 'andy', 'drew'],
  ['david', 'dave', 'davey'],
  ['christine', 'christina', 'tina', 'kristina', 'chris'],
  ['patricia', 'pat', 'patty', 'trish'],
  ['susan', 'sue', 'suzy', 'susie'],
  ['deborah', 'debbie', 'deb'],
  ['josephine', 'jo', 'josie'],
  ['joseph', 'joe', 'joey'],
  ['abigail', 'abby', 'abbie'],
  ['francis', 'frances', 'frank', 'fran', 'frankie'],
  ['isabel', 'isabella', 'isabelle', 'izzy', 'bella'],
  ['penelope', 'penny'],
  ['olivia', 'liv', 'livvy'],
  ['theodore', 'theo', 'ted'],
  ['victoria', 'vicky', 'vic', 'tori'],
  ['mohammed', 'muhammad', 'mohammad', 'mohamed', 'mo'],
  ['nicholas', 'nicolas', 'nick', 'nico'],
  ['lawrence', 'laurence', 'larry'],
];

const GROUP_OF = new Map<string, number[]>();
NICKNAMES.forEach((group, index) => {
  for (const name of group) GROUP_OF.set(name, [...(GROUP_OF.get(name) ?? []), index]);
});

/** Lower case, accents and apostrophes removed: "Zoë" → "zoe", "O'Neil" → "oneil". */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/['’.]/g, '').toLowerCase();
}

export function sameFirstName(one: string, two: string): boolean {
  const a = foldName(one);
  const b = foldName(two);
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length >= 3 && longer.startsWith(shorter)) return true;
  const groups = GROUP_OF.get(a);
  return groups !== undefined && (GROUP_OF.get(b) ?? []).some((g) => groups.includes(g));
}
