/** Generated benchmark people: person<i>@example.com with a professional bio from the labelled corpus, the same every run. */
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/**
 * Readable professional writing, so the people are stored with a personality as real ones are:
 * random word salad (what this file generated before) is refused by the text model as "no
 * personality" for most people, which turned the name-search bench into a bench of 404s. The
 * bios and free texts of the labelled corpus of at least 120 words, reused round the list.
 */
function corpusTexts(): string[] {
  const file = fileURLToPath(new URL('../training/corpus/professional.jsonl', import.meta.url));
  const texts = readFileSync(file, 'utf8').split('\n').filter(Boolean)
    .map((line) => JSON.parse(line) as { genre?: unknown; text?: unknown })
    .filter((row) => (row.genre === 'bio' || row.genre === 'various') && typeof row.text === 'string')
    .map((row) => String(row.text))
    .filter((text) => text.split(/\s+/).length >= 120);
  if (texts.length === 0) throw new Error(`no bios of 120 words or more in ${file}`);
  return texts;
}

export async function generatePeople(file: string, people: number): Promise<void> {
  const texts = corpusTexts();
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
      // A stride that is prime to the list's length visits every text before repeating one.
      texts: [{ type: 'bio', text: texts[(i * 7919) % texts.length] ?? '' }],
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
