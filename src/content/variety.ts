/**
 * How much the advice differs from person to person, over a set of people (the demo people in
 * the tests and `npm run advice-overlap`): the share of sentence slots that are distinct, the
 * sentence found in most profiles, and whether two people of different types get the same set of
 * sample emails. Pure; the people are read from the data each time, never hard-coded.
 */
import { composeSampleEmails } from './connect/emails.ts';
import { describePersonality } from './describe.ts';
import type { TraitEstimate } from '../personality/types.ts';
import type { PhraseLibrary, Section } from './phrases.ts';
import type { Content } from './load-content.ts';
import { isThinNote } from './picking.ts';
import { personalize, stripMarkers } from './text.ts';

export interface VarietyPerson {
  label: string;
  estimate: TraitEstimate;
  title?: string | null;
}

export interface VarietyReport {
  people: number;
  /** Sentence slots over every profile (each profile's sentences, nameless). */
  slots: number;
  /** Distinct sentences among them. */
  distinct: number;
  distinctShare: number;
  /** The sentence found in most profiles, and in how many. */
  mostShared: { sentence: string; profiles: number } | null;
  /** Pairs of people of different types who get the same six sample emails. */
  sameEmails: [string, string][];
  /** Distinct sets of sample emails. */
  emailSets: number;
  /** The two people of different types whose profiles share most sentences, and how many of the first one's. */
  mostAlikeAcrossTypes: { a: string; b: string; shared: number; of: number } | null;
  /** Profiles that open with the note that the evidence is thin (not counted as slots). */
  evidenceNotes: number;
}

/** The sentences of an A1 answer (`profile.overview`, seven phrase blocks, do and don't). */
export const A1_SECTIONS: readonly Section[] = [
  'overview', 'behavior', 'motivation', 'drainer', 'communication', 'meeting', 'selling', 'working_together', 'do', 'dont',
];

/**
 * A sentence as the library wrote it: the wording the evidence adds (wording.ts hedge) taken off,
 * so one phrase said firmly to one person and as a tendency to another counts as one sentence.
 */
export function unhedged(sentence: string): string {
  const plain = sentence.replace(/^(The writing so far suggests that|From the writing so far, it seems that),? /, '').replace(/ (probably|most likely) /, ' ');
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/**
 * The notes that open a profile on thin evidence ("There is not much of this person's writing to
 * go on…"), as a nameless profile says them. They describe the evidence, not the person, and are
 * the same for everybody on purpose, as the confidence figure is: they are not advice, so the
 * variety measure leaves them out (and counts them apart).
 */
function evidenceNotes(phrases: PhraseLibrary): ReadonlySet<string> {
  return new Set(phrases.sections.overview.filter(isThinNote).map((p) => stripMarkers(personalize(p.text, null))));
}

/** A person's A1 sentences without their name or hedges, so only the advice is compared; the evidence note is left out. */
export function profileSentences(phrases: PhraseLibrary, person: VarietyPerson): string[] {
  const { content } = describePersonality(phrases, person.estimate, null, { title: person.title ?? null });
  const notes = evidenceNotes(phrases);
  return A1_SECTIONS.flatMap((section) => content[section].filter((s) => !notes.has(s)).map(unhedged));
}

function opensWithEvidenceNote(phrases: PhraseLibrary, person: VarietyPerson): boolean {
  const { content } = describePersonality(phrases, person.estimate, null, { title: person.title ?? null });
  return evidenceNotes(phrases).has(content.overview[0] ?? '');
}

function emailSet(content: Content, person: VarietyPerson): string {
  const emails = composeSampleEmails({ firstName: null, estimate: person.estimate, title: person.title ?? null }, null, content.emails);
  return JSON.stringify(emails.map((e) => [e.description, e.text]));
}

export function measureVariety(content: Content, people: readonly VarietyPerson[]): VarietyReport {
  const profiles = people.map((person) => ({ person, sentences: profileSentences(content.phrases, person) }));
  const inProfiles = new Map<string, number>();
  let slots = 0;
  for (const { sentences } of profiles) {
    slots += sentences.length;
    for (const sentence of new Set(sentences)) inProfiles.set(sentence, (inProfiles.get(sentence) ?? 0) + 1);
  }
  let mostShared: VarietyReport['mostShared'] = null;
  for (const [sentence, count] of inProfiles) if (mostShared === null || count > mostShared.profiles) mostShared = { sentence, profiles: count };
  const sets = people.map((person) => ({ person, set: emailSet(content, person), type: describePersonality(content.phrases, person.estimate).view.discType }));
  let mostAlikeAcrossTypes: VarietyReport['mostAlikeAcrossTypes'] = null;
  for (const [i, a] of profiles.entries()) {
    const typeA = sets[i]?.type;
    for (const [j, b] of profiles.entries()) {
      if (j <= i || sets[j]?.type === typeA) continue;
      const theirs = new Set(b.sentences);
      const shared = new Set(a.sentences.filter((s) => theirs.has(s))).size;
      if (mostAlikeAcrossTypes === null || shared > mostAlikeAcrossTypes.shared) {
        mostAlikeAcrossTypes = { a: a.person.label, b: b.person.label, shared, of: a.sentences.length };
      }
    }
  }
  const sameEmails: [string, string][] = [];
  for (const [i, a] of sets.entries()) {
    for (const b of sets.slice(i + 1)) if (a.type !== b.type && a.set === b.set) sameEmails.push([a.person.label, b.person.label]);
  }
  return {
    people: people.length,
    slots,
    distinct: inProfiles.size,
    distinctShare: inProfiles.size / Math.max(1, slots),
    mostShared,
    sameEmails,
    emailSets: new Set(sets.map((s) => s.set)).size,
    mostAlikeAcrossTypes,
    evidenceNotes: people.filter((person) => opensWithEvidenceNote(content.phrases, person)).length,
  };
}
