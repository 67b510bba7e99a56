import { composeRelationship } from './src/content/connect/relationship.ts';
import { partyAt } from './test/content/connect/helpers.ts';
const r = composeRelationship(partyAt('Maria', 225), partyAt('Tom', 250));
console.log(r.overview); console.log(r.stress.phrases.join('\n'));
const q = composeRelationship(partyAt('Maria', 45), partyAt('Tom', 315));
console.log(q.overview); console.log(q.work.phrases.join('\n'));
const z = composeRelationship(partyAt('Maria', 100), partyAt('Tom', 80, 20));
console.log(z.overview);
