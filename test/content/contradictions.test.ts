import { describe, expect, it } from 'vitest';
import { composeProfileContent } from '../../src/content/compose-profile.ts';
import { EMPHATIC_INTENSITY, markedLevels, traitLevels, traitStances } from '../../src/content/individual.ts';
import { loadPhraseLibrary, SECTIONS, type Phrase, type Section } from '../../src/content/phrases.ts';
import { contradicts } from '../../src/content/rank.ts';
import { personalize, stripMarkers } from '../../src/content/text.ts';
import type { DiscPoint } from '../../src/personality/types.ts';
import { seededRandom } from '../../src/shared/random.ts';

const library = loadPhraseLibrary();
const all = SECTIONS.flatMap((s) => library.sections[s]);

/** Wording that claims a trait is pronounced (as in individual.test.ts). */
const EMPHATIC = /strongly marked|unmistakabl|is (\*\*)?strong(\*\*)?[:;,.]|runs (\*\*)?deep|extremely|exceptionally|intensely|far more than/i;

/** Each section's phrases by the plain text a nameless profile shows, to read a page back as phrases. */
const byText = new Map<string, Phrase>(SECTIONS.flatMap((s) => library.sections[s].map((p) => [`${s}|${stripMarkers(personalize(p.text, null))}`, p] as const)));

function pagePhrases(content: Record<Section, string[]>): Phrase[] {
  return SECTIONS.flatMap((section) =>
    content[section].map((text) => {
      const phrase = byText.get(`${section}|${text}`);
      if (phrase === undefined) throw new Error(`not a library phrase: ${section}: ${text}`);
      return phrase;
    }),
  );
}

function pointAt(angle: number, intensity: number): DiscPoint {
  const r = intensity / 100;
  return { x: r * Math.cos((angle * Math.PI) / 180), y: r * Math.sin((angle * Math.PI) / 180) };
}

const TITLES = ['Account Executive', 'Software Engineer', 'Data Analyst', 'HR Manager', 'Project Manager', 'Head of Operations', null];

describe('the phrase library marks opposite claims', () => {
  it('uses every stance topic with at least two sides, and only on phrases that exist', () => {
    const sides = new Map<string, Set<string>>();
    for (const phrase of all) {
      for (const stance of phrase.stance ?? []) {
        const [topic = '', side = ''] = stance.split(':');
        sides.set(topic, (sides.get(topic) ?? new Set()).add(side));
      }
    }
    expect([...sides.keys()].sort()).toEqual(['composure', 'degree', 'drive', 'lead', 'length', 'novelty', 'opening', 'order', 'pace', 'structure', 'turn']);
    for (const [topic, found] of sides) expect(found.size, topic).toBeGreaterThanOrEqual(2);
  });

  it('marks the review\'s example as opposite: "takes criticism without visible upset" against "harsh criticism"', () => {
    const calm = all.find((p) => p.text.includes('takes criticism and bad news without visible upset'));
    const harsh = all.find((p) => p.text.startsWith('Harsh criticism, especially when delivered'));
    expect(calm && harsh && contradicts(calm, harsh)).toBe(true);
  });

  it('gives each trait phrase the stance its trait level claims (and any other only on a topic no trait claims)', () => {
    const traitTopics = new Set(['composure', 'novelty', 'structure']);
    for (const phrase of all) {
      if (phrase.traits === undefined || phrase.stance === undefined) continue;
      expect(phrase.stance.filter((s) => traitTopics.has(s.split(':')[0] ?? '')), phrase.id).toEqual(traitStances(phrase.traits));
    }
  });

  it('never asks for two lengths of email on one page (a trial found "two lines" beside "medium-length" and "three to five sentences")', () => {
    const salesperson = { point: pointAt(135, 25), firstName: null, confidence: 30, title: 'Account Executive' };
    const emailing = composeProfileContent(salesperson).emailing.join(' ');
    expect(emailing).toContain('two lines with one clear ask');
    expect(emailing).not.toContain('medium-length');
    const lengths = new Set(pagePhrases(composeProfileContent(salesperson)).flatMap((p) => p.stance ?? []).filter((s) => s.startsWith('length:')));
    expect(lengths.size).toBe(1);
  });

  it('never asks for small talk and for none on one page (a trial found "a few minutes of real conversation before the agenda" beside "the decision in the first line")', () => {
    const manager = { point: pointAt(10, 45), firstName: null, confidence: 30, title: 'Project Manager' };
    const ids = pagePhrases(composeProfileContent(manager)).map((p) => p.id);
    expect(ids.filter((id) => id === 'communication-011' || id === 'communication-076')).toHaveLength(1);
  });
});

describe('advice at confidence 15–49 does not contradict itself', () => {
  const random = seededRandom(2026);
  const people = Array.from({ length: 600 }, () => ({
    point: pointAt(random() * 360, random() * 100),
    confidence: 15 + Math.floor(random() * 35),
    traits: { openness: random() * 2 - 1, conscientiousness: random() * 2 - 1, neuroticism: random() * 2 - 1 },
    title: TITLES[Math.floor(random() * TITLES.length)] ?? null,
  }));

  it('carries no pair of opposite phrases on one page, and nothing against the person\'s own marked traits', () => {
    let stanced = 0;
    const found: string[] = [];
    for (const person of people) {
      const phrases = pagePhrases(composeProfileContent({ ...person, firstName: null }));
      // A marked trait overrules the sector's claim; a lean does not (its phrase gives way instead).
      const own = traitStances(markedLevels(traitLevels(person.traits)));
      for (const [i, a] of phrases.entries()) {
        if (a.stance === undefined) continue;
        stanced++;
        for (const b of phrases.slice(i + 1)) if (contradicts(a, b)) found.push(`${a.id} / ${b.id}`);
        for (const stance of a.stance) {
          const topic = stance.split(':')[0] ?? '';
          for (const mine of own) if (mine.startsWith(`${topic}:`) && mine !== stance) found.push(`${a.id} against ${mine}`);
        }
      }
    }
    expect(found).toEqual([]);
    // The check has something to check: tagged phrases do reach these pages.
    expect(stanced).toBeGreaterThan(people.length);
  });

  it('gives no block an overview that says the opposite of a phrase on the page', () => {
    const overviewByText = new Map(library.sectionOverviews.map((p) => [personalize(p.text, null), p] as const));
    let stanced = 0;
    const found: string[] = [];
    for (const person of people) {
      const content = composeProfileContent({ ...person, firstName: null });
      const phrases = pagePhrases(content);
      for (const text of Object.values(content.section_overviews)) {
        const overview = overviewByText.get(text);
        if (overview?.stance === undefined) continue;
        stanced++;
        for (const p of phrases) if (contradicts(overview, p)) found.push(`${overview.id} / ${p.id}`);
      }
    }
    expect(found).toEqual([]);
    expect(stanced).toBeGreaterThan(0);
  });

  it('keeps emphatic and pronounced-trait phrases out below confidence 50', () => {
    const found: string[] = [];
    for (const person of people) {
      const content = composeProfileContent({ ...person, firstName: null });
      for (const phrase of pagePhrases(content)) if ((phrase.minIntensity ?? 0) >= EMPHATIC_INTENSITY) found.push(phrase.id);
      for (const text of [...SECTIONS.flatMap((s) => content[s]), content.summary]) if (EMPHATIC.test(text)) found.push(text);
    }
    expect(found).toEqual([]);
  });

  it('drops the sector\'s claim, not the trait\'s, when a marked trait says otherwise', () => {
    const base = { point: pointAt(22.5, 60), firstName: null, confidence: 30 };
    const plain = pagePhrases(composeProfileContent(base)).map((p) => p.id);
    const calm = pagePhrases(composeProfileContent({ ...base, traits: { neuroticism: -0.8 } }));
    const harsh = library.sections.drainer.find((p) => p.text.startsWith('Harsh criticism'));
    expect(harsh).toBeDefined();
    expect(plain).toContain(harsh?.id);
    expect(calm.map((p) => p.id)).not.toContain(harsh?.id);
    expect(calm.some((p) => p.traits?.neuroticism !== undefined)).toBe(true);
  });
});
