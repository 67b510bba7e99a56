import { describe, expect, it } from 'vitest';
import {
  composeSampleEmails,
  emailLibraryProblems,
  SENDER_NAME_PLACEHOLDER,
  type EmailLibrary,
  type SampleEmail,
} from '../../../src/content/connect/emails.ts';
import { hedgedText } from '../../../src/content/connect/hedged.ts';
import { HEDGE } from '../../../src/content/hedge.ts';
import { composeConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { TENTATIVE_CONFIDENCE } from '../../../src/content/reading.ts';
import type { Party } from '../../../src/content/party.ts';
import { AXIS, partyAt, tagsIn, TYPE_ANGLES, withConfidence } from './helpers.ts';
import { shipped } from '../../helpers/content.ts';

describe('the email templates', () => {
  it('are complete and valid', () => {
    const library = shipped.emails;
    expect(emailLibraryProblems(asFile(library))).toEqual([]);
    expect(library.situations.map((s) => s.key)).toEqual(
      expect.arrayContaining(['introduction', 'follow_up', 'meeting_request', 'bad_news', 'decision', 'thank_you']),
    );
    const bodies = library.situations.flatMap((s) => Object.values(s.text).map((lines) => lines.join('\n')));
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('reports broken templates', () => {
    const library = structuredClone(shipped.emails);
    const first = library.situations[0];
    if (first === undefined) throw new Error('no situations');
    first.text.D = ['Hello,', 'No name, no signature'];
    first.tips.I = ['Use {first} here'];
    const second = library.situations[1];
    if (second === undefined) throw new Error('no second situation');
    second.tips.C = [...second.tips.C, first.tips.C[0] ?? ''];
    const problems = emailLibraryProblems(asFile(library)).join('\n');
    expect(problems).toContain('must greet {name}');
    expect(problems).toContain('signed with {sender}');
    expect(problems).toContain('placeholder {first}');
    expect(problems).toContain(`${second.key}.tips.C: repeats a sentence of ${first.key}`);
  });

  it('refuses a tentative wording that states the style as fact, repeats the firm text or repeats another situation', () => {
    const library = structuredClone(shipped.emails);
    const [first, second] = library.situations;
    if (first === undefined || second === undefined) throw new Error('no situations');
    first.tips.D = [{ text: '{name} wants it short.', tentative: '{name} wants it short, always.' }, ...first.tips.D.slice(1)];
    first.tips.I = [{ text: '{name} likes people.', tentative: '{name} likes people.' }, ...first.tips.I.slice(1)];
    const again = hedgedText(second.tips.S[0] ?? '', true);
    first.tips.S = [{ text: 'A firm sentence of its own.', tentative: again }, ...first.tips.S.slice(1)];
    library.senderNotes.D.I = { text: 'You write briskly.', sender: 'You may write briskly.', reader: '{name} may mind.' };
    (library as { notes: unknown }).notes = {};
    const problems = emailLibraryProblems(asFile(library)).join('\n');
    expect(problems).toContain(`${first.key}.tips.D[0]: tentative must say it as a tendency`);
    expect(problems).toContain(`${first.key}.tips.I[0]: tentative repeats the firm text`);
    expect(problems).toContain('.tips.S: repeats a sentence of');
    expect(problems).toContain('sender_notes.D.I: "both" goes with "sender" and "reader"');
    expect(problems).toContain('notes.tentative: must be a string');
  });
});

/** The library as templates.json spells it (the checks read the file, whose key is `sender_notes`). */
function asFile(library: EmailLibrary): Record<string, unknown> {
  const { senderNotes, ...rest } = library;
  return { ...rest, sender_notes: senderNotes };
}

describe('composeSampleEmails', () => {
  it.each(TYPE_ANGLES)('gives labelled, described, signed emails at %s°', (angle) => {
    const emails = composeSampleEmails(partyAt('Noor', angle), partyAt('Al', 0), shipped.emails);
    expect(emails.length).toBeGreaterThanOrEqual(6);
    expect(new Set(emails.map((e) => e.label)).size).toBe(emails.length);
    for (const e of emails) {
      expect(e.description).toMatch(/^<p>.*<\/p>$/s);
      expect(e.text.startsWith('Hi Noor,') || e.text.startsWith('Hello Noor,')).toBe(true);
      expect(e.text).toContain(SENDER_NAME_PLACEHOLDER);
      expect(e.text).toContain('<br>');
      expect(e.text).not.toMatch(/[{}\n]/);
      for (const tag of tagsIn(e.text)) expect(tag).toBe('<br>');
      for (const tag of tagsIn(e.description)) expect(tag).toMatch(/^<\/?p>$/);
    }
  });

  it('writes genuinely different emails for D, I, S, C and a blend', () => {
    const bodies = [AXIS.D, AXIS.I, AXIS.S, AXIS.C].map((a) => composeSampleEmails(partyAt('Noor', a), null, shipped.emails)[0]?.text);
    bodies.push(composeSampleEmails(partyAt('Noor', AXIS.D, 10), null, shipped.emails)[0]?.text);
    expect(new Set(bodies).size).toBe(5);
    // A D reader gets the shortest emails, a C or S reader the longest.
    const length = (angle: number): number => composeSampleEmails(partyAt('Noor', angle), null, shipped.emails).reduce((n, e) => n + e.text.length, 0);
    expect(length(AXIS.D)).toBeLessThan(length(AXIS.C));
    expect(length(AXIS.D)).toBeLessThan(length(AXIS.S));
  });

  it('tells the sender about their own habits when styles differ, once', () => {
    const fromI = composeSampleEmails(partyAt('Noor', AXIS.C), partyAt('Al', AXIS.I), shipped.emails);
    expect(fromI[0]?.description).toContain('You write with enthusiasm');
    expect(fromI.filter((e) => e.description.includes('You write')).length).toBe(1);
    const fromC = composeSampleEmails(partyAt('Noor', AXIS.C), partyAt('Al', AXIS.C), shipped.emails);
    expect(fromC[0]?.description).not.toContain('You write');
    expect(composeSampleEmails(partyAt('Noor', AXIS.C), null, shipped.emails)[0]?.description).not.toContain('You write');
  });

  it('escapes the name and falls back to "there"', () => {
    const emails = composeSampleEmails(partyAt('<b>Noor</b> & co', AXIS.I), null, shipped.emails);
    for (const e of emails) {
      expect(e.text).toContain('&lt;b&gt;Noor&lt;/b&gt; &amp; co');
      expect(e.text + e.description).not.toContain('<b>');
    }
    const anonymous = composeSampleEmails(partyAt(null, AXIS.S), null, shipped.emails);
    for (const e of anonymous) expect(e.text).toMatch(/^(Hi|Hello) there,/);
    expect(anonymous[0]?.description).toContain('<p>Your contact');
  });

  it('is deterministic', () => {
    expect(composeSampleEmails(partyAt('Noor', 80), partyAt('Al', 300), shipped.emails)).toEqual(composeSampleEmails(partyAt('Noor', 80), partyAt('Al', 300), shipped.emails));
  });
});

/** What a reader sees of a text, cut into sentences (and <br> lines), spaces folded. */
function sentences(html: string): string[] {
  return html
    .split(/<[^>]*>/)
    .flatMap((part) => part.split(/(?<=[^\d][.!?])\s+/))
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

/** The body of an email: without the greeting line and the signature. */
function bodySentences(email: SampleEmail): string[] {
  const lines = email.text.split('<br>');
  return sentences(lines.slice(1).filter((line) => line !== SENDER_NAME_PLACEHOLDER).join('<br>'));
}

const READERS = {
  D: partyAt('Robert', AXIS.D),
  I: partyAt('Marisol', AXIS.I),
  S: partyAt('Sam', AXIS.S),
  C: partyAt('Hélène', AXIS.C),
  blend: partyAt('Noor', AXIS.I, 10),
} as const;

describe('variety in the sample emails', () => {
  it.each(Object.entries(READERS))('never repeats a sentence of advice across the situations (%s reader)', (_style, reader) => {
    const emails = composeSampleEmails(reader, null, shipped.emails);
    const where = new Map<string, string>();
    for (const email of emails) {
      for (const sentence of sentences(email.description)) {
        expect(where.get(sentence), `"${sentence}" in ${email.label}`).toBeUndefined();
        where.set(sentence, email.label);
      }
      expect(sentences(email.description).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('writes each situation differently for each style, not by swapping a few words', () => {
    const byStyle = Object.values(READERS).map((reader) => composeSampleEmails(reader, null, shipped.emails));
    const situations = byStyle[0]?.length ?? 0;
    expect(situations).toBeGreaterThanOrEqual(6);
    for (let i = 0; i < situations; i += 1) {
      const bodies = byStyle.map((emails) => emails[i]).filter((e): e is SampleEmail => e !== undefined).map(bodySentences);
      for (const [a, one] of bodies.entries()) {
        for (const two of bodies.slice(a + 1)) {
          const shared = one.filter((s) => two.includes(s)).length;
          // A sign-off such as "Kind regards," may be shared; little more may.
          expect(shared / Math.min(one.length, two.length), `${one.join(' | ')}\n${two.join(' | ')}`).toBeLessThanOrEqual(0.25);
        }
      }
      // Structure and length follow the reader: a D reader gets the shortest body, S and C longer ones.
      const [d, , s, c] = byStyle.map((emails) => emails[i]?.text.length ?? 0);
      expect(d).toBeLessThan(s ?? 0);
      expect(d).toBeLessThan(c ?? 0);
    }
  });

  it('gives a blend reader advice of its own, not a pure style\'s', () => {
    const blend = composeSampleEmails(READERS.blend, null, shipped.emails).map((e) => e.description);
    const pure = composeSampleEmails(partyAt('Noor', AXIS.I), null, shipped.emails).map((e) => e.description);
    for (const [i, description] of blend.entries()) expect(description).not.toBe(pure[i]);
  });
});

describe("composeSampleEmails for a reader whose placement is tentative (thin evidence, as the reader's own profile reads it)", () => {
  const thin = (party: Party): Party => withConfidence(party, (TENTATIVE_CONFIDENCE - 5) / 100);
  const NOTE = "<p>There is not much of Noor's writing to go on, so these tips are tentative: read them as what Noor may tend to prefer, and check them against how Noor actually replies.</p>";
  const paragraphs = (html: string): string[] => [...html.matchAll(/<p>(.*?)<\/p>/g)].map((m) => m[1] ?? '');

  it('says how the reader takes each email as a tendency, notes once that the tips are tentative, and leaves the emails as they are', () => {
    for (const angle of [AXIS.D, AXIS.I, AXIS.S, AXIS.C]) {
      const sure = composeSampleEmails(partyAt('Noor', angle), null, shipped.emails);
      const unsure = composeSampleEmails(thin(partyAt('Noor', angle)), null, shipped.emails);
      expect(unsure.map((e) => e.text), String(angle)).toEqual(sure.map((e) => e.text));
      expect(unsure.map((e) => e.label)).toEqual(sure.map((e) => e.label));
      expect(unsure.filter((e) => e.description.includes('There is not much of'))).toHaveLength(1);
      expect(unsure[0]?.description.endsWith(NOTE), String(angle)).toBe(true);
      for (const [i, email] of unsure.entries()) {
        const [opening] = paragraphs(email.description);
        // The first paragraph is how this reader takes this kind of email: a claim about them
        // (one of them, "Noor may already feel awkward…", was written as a tendency already).
        expect(opening, `${angle} ${email.label}`).toMatch(HEDGE);
        // What to do in it is advice on the writing, the same for everybody.
        expect(paragraphs(email.description).slice(1, 2)).toEqual(paragraphs(sure[i]?.description ?? '').slice(1, 2));
      }
    }
    const d = composeSampleEmails(thin(partyAt('Noor', AXIS.D)), null, shipped.emails);
    expect(d[0]?.description).toMatch(
      /^<p>Noor is likely to decide from the first two lines whether an email from a stranger is worth the time, and a paragraph about who you are may not survive that test\.<\/p>/,
    );
    expect(JSON.stringify(d)).not.toContain('Noor decides from the first two lines');
  });

  it('does not call a tentative reader near the centre balanced: the emails follow the way their writing points, hedged', () => {
    // Thin evidence is no proof of a balanced style: a reader whose few words lean I gets the I
    // emails (the balanced ones are for a reading that is central on moderate or strong evidence).
    const weak = composeSampleEmails(thin(partyAt('Noor', AXIS.I, 10)), null, shipped.emails);
    expect(JSON.stringify(weak)).not.toMatch(/no strong leaning|works best for Noor/);
    expect(weak.map((e) => e.text)).toEqual(composeSampleEmails(partyAt('Noor', AXIS.I, 60), null, shipped.emails).map((e) => e.text));
    expect(weak[0]?.description).toMatch(/^<p>Noor seems to answer people more readily/);
    expect(composeSampleEmails(partyAt('Noor', AXIS.I, 10), null, shipped.emails)[0]?.description).toContain('Noor has no strong leaning');
  });

  it('never repeats a sentence of advice across the six emails a tentative reader gets', () => {
    for (const reader of Object.values(READERS).map(thin)) {
      const where = new Map<string, string>();
      for (const email of composeSampleEmails(reader, null, shipped.emails)) {
        for (const sentence of sentences(email.description)) {
          expect(where.get(sentence), `"${sentence}" in ${email.label}`).toBeUndefined();
          where.set(sentence, email.label);
        }
      }
    }
  });

  it("hedges the note on the sender's habit for whichever of the two is tentative", () => {
    const note = (reader: Party, sender: Party): string | undefined => paragraphs(composeSampleEmails(reader, sender, shipped.emails)[0]?.description ?? '').find((p) => p.startsWith('You'));
    const noor = partyAt('Noor', AXIS.C);
    const al = partyAt('Al', AXIS.I);
    expect(note(noor, al)).toBe('You write with enthusiasm; Noor trusts evidence, so swap the adjectives for figures and keep the structure tidy.');
    expect(note(thin(noor), al)).toBe('You write with enthusiasm; Noor seems to trust evidence, so swap the adjectives for figures and keep the structure tidy.');
    expect(note(noor, thin(al))).toBe('You may write with enthusiasm; Noor trusts evidence, so swap the adjectives for figures and keep the structure tidy.');
    expect(note(thin(noor), thin(al))).toBe('You may write with enthusiasm, and Noor seems to trust evidence, so swap the adjectives for figures and keep the structure tidy.');
    // Said after the note that the tips are tentative.
    expect(composeSampleEmails(thin(noor), al, shipped.emails)[0]?.description).toMatch(/writing to go on.*<\/p><p>You write with enthusiasm/);
  });

  it("gives a confident reader today's descriptions, word for word, at any evidence level from the threshold up", () => {
    const today =
      "<p>Noor will check an introduction for substance: why you are writing to this person in particular, and whether your claims hold up.</p><p>Name the specific problem you think Noor's team faces, give one result with its source and sample size, and attach a short summary to read before any call. Propose a meeting of fixed length with a clear purpose.</p><p>You write with enthusiasm; Noor trusts evidence, so swap the adjectives for figures and keep the structure tidy.</p>";
    const first = composeSampleEmails(partyAt('Noor', AXIS.C), partyAt('Al', AXIS.I), shipped.emails);
    expect(first[0]?.description).toBe(today);
    expect(JSON.stringify(first)).not.toMatch(/There is not much|writing suggests/);
    for (const confidence of [TENTATIVE_CONFIDENCE / 100, 0.3, 0.95]) {
      expect(composeSampleEmails(withConfidence(partyAt('Noor', AXIS.C), confidence), withConfidence(partyAt('Al', AXIS.I), confidence), shipped.emails), String(confidence)).toEqual(first);
    }
  });

  it("uses the individual profile's threshold: the tips are tentative exactly where the reader's C2 profile opens as tentative", () => {
    for (const confidence of [0.05, (TENTATIVE_CONFIDENCE - 1) / 100, TENTATIVE_CONFIDENCE / 100, 0.3, 0.95]) {
      const reader = withConfidence(partyAt('Noor', AXIS.S), confidence);
      const hedged = composeSampleEmails(reader, null, shipped.emails)[0]?.description.includes('these tips are tentative') ?? false;
      expect(hedged, String(confidence)).toBe(/tentative/.test(composeConnectRecommendations(reader, shipped).overview));
      expect(hedged, String(confidence)).toBe(confidence * 100 < TENTATIVE_CONFIDENCE);
    }
  });
});
