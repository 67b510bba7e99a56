import { composeProfileContent, selectProfilePhrases } from './src/content/compose-profile.ts';
import { loadPhraseLibrary } from './src/content/phrases.ts';
import { rankPhrases } from './src/content/rank.ts';
import { apportionByPoint } from './src/content/apportion.ts';
const lib = loadPhraseLibrary();
const at = { angle: 225, intensity: 95, facets: { level: 'strong' as const, traits: {}, role: null } };
console.log(apportionByPoint(rankPhrases(lib.sections.overview, at), 95).slice(0, 8).map(r => r.phrase.id + ' ' + r.fit.toFixed(2)));
console.log(selectProfilePhrases(at, lib).overview.map(p => p.id));
