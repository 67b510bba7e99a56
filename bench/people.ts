/** Generated benchmark people: person<i>@example.com with a 200-word bio, the same for every seed-42 run. */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom } from '../training/random.ts';

const WORDS = (
  'the a and to of in I we you they it is was be have do say get make go know think take see come want look use find give tell ' +
  'work call try ask need feel become leave put mean keep let begin seem help talk turn start show hear play run move like live ' +
  'believe hold bring happen write provide sit stand lose pay meet include continue set learn change lead understand watch follow ' +
  'team project customer people friend family plan idea result goal meeting week day year time problem question answer detail ' +
  'really always never often sometimes quickly carefully together happy excited worried sure maybe perhaps definitely honestly ' +
  'new good great small large important different early late next last best clear strong quiet warm careful bold simple'
).split(' ');

function bio(next: () => number, words: number): string {
  const sentences: string[] = [];
  let left = words;
  while (left > 0) {
    const length = Math.min(left, 6 + Math.floor(next() * 14));
    const sentence = Array.from({ length }, () => WORDS[Math.floor(next() * WORDS.length)] ?? 'the');
    const first = sentence[0] ?? 'the';
    sentence[0] = first.charAt(0).toUpperCase() + first.slice(1);
    sentences.push(`${sentence.join(' ')}${next() < 0.15 ? '!' : next() < 0.1 ? '?' : '.'}`);
    left -= length;
  }
  return sentences.join(' ');
}

export async function generatePeople(file: string, people: number): Promise<void> {
  const next = seededRandom(42);
  const out = createWriteStream(file);
  for (let i = 0; i < people; i++) {
    const line = JSON.stringify({
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: `person${i}@example.com`,
      linkedin_url: `https://www.linkedin.com/in/person-${i}-bench`,
      company_name: `Company ${i % 997}`,
      title: 'Analyst',
      location: 'Springfield',
      texts: [{ type: 'bio', text: bio(next, 200) }],
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
