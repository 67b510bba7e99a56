import { describe, expect, it } from 'vitest';
import {
  composeSampleEmails,
  emailLibraryProblems,
  loadEmailLibrary,
  SENDER_NAME_PLACEHOLDER,
  type SampleEmail,
} from '../../../src/content/connect/emails.ts';
import { AXIS, partyAt, tagsIn, TYPE_ANGLES } from './helpers.ts';

describe('the email templates', () => {
  it('are complete and valid', () => {
    const library = loadEmailLibrary();
    expect(emailLibraryProblems(library)).toEqual([]);
    expect(library.situations.map((s) => s.key)).toEqual(
      expect.arrayContaining(['introduction', 'follow_up', 'meeting_request', 'bad_news', 'decision', 'thank_you']),
    );
    const bodies = library.situations.flatMap((s) => Object.values(s.text).map((lines) => lines.join('\n')));
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('reports broken templates', () => {
    const library = structuredClone(loadEmailLibrary());
    const first = library.situations[0];
    if (first === undefined) throw new Error('no situations');
    first.text.D = ['Hello,', 'No name, no signature'];
    first.tips.I = ['Use {first} here'];
    const second = library.situations[1];
    if (second === undefined) throw new Error('no second situation');
    second.tips.C = [...second.tips.C, first.tips.C[0] ?? ''];
    const problems = emailLibraryProblems(library).join('\n');
    expect(problems).toContain('must greet {name}');
    expect(problems).toContain('signed with {sender}');
    expect(problems).toContain('placeholder {first}');
    expect(problems).toContain(`${second.key}.tips.C: repeats a sentence of ${first.key}`);
  });
});

describe('composeSampleEmails', () => {
  it.each(TYPE_ANGLES)('gives labelled, described, signed emails at %s°', (angle) => {
    const emails = composeSampleEmails(partyAt('Noor', angle), partyAt('Al', 0));
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
    const bodies = [AXIS.D, AXIS.I, AXIS.S, AXIS.C].map((a) => composeSampleEmails(partyAt('Noor', a), null)[0]?.text);
    bodies.push(composeSampleEmails(partyAt('Noor', AXIS.D, 10), null)[0]?.text);
    expect(new Set(bodies).size).toBe(5);
    // A D reader gets the shortest emails, a C or S reader the longest.
    const length = (angle: number): number => composeSampleEmails(partyAt('Noor', angle), null).reduce((n, e) => n + e.text.length, 0);
    expect(length(AXIS.D)).toBeLessThan(length(AXIS.C));
    expect(length(AXIS.D)).toBeLessThan(length(AXIS.S));
  });

  it('tells the sender about their own habits when styles differ, once', () => {
    const fromI = composeSampleEmails(partyAt('Noor', AXIS.C), partyAt('Al', AXIS.I));
    expect(fromI[0]?.description).toContain('You write with enthusiasm');
    expect(fromI.filter((e) => e.description.includes('You write')).length).toBe(1);
    const fromC = composeSampleEmails(partyAt('Noor', AXIS.C), partyAt('Al', AXIS.C));
    expect(fromC[0]?.description).not.toContain('You write');
    expect(composeSampleEmails(partyAt('Noor', AXIS.C), null)[0]?.description).not.toContain('You write');
  });

  it('escapes the name and falls back to "there"', () => {
    const emails = composeSampleEmails(partyAt('<b>Noor</b> & co', AXIS.I), null);
    for (const e of emails) {
      expect(e.text).toContain('&lt;b&gt;Noor&lt;/b&gt; &amp; co');
      expect(e.text + e.description).not.toContain('<b>');
    }
    const anonymous = composeSampleEmails(partyAt(null, AXIS.S), null);
    for (const e of anonymous) expect(e.text).toMatch(/^(Hi|Hello) there,/);
    expect(anonymous[0]?.description).toContain('<p>Your contact');
  });

  it('is deterministic', () => {
    expect(composeSampleEmails(partyAt('Noor', 80), partyAt('Al', 300))).toEqual(composeSampleEmails(partyAt('Noor', 80), partyAt('Al', 300)));
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
    const emails = composeSampleEmails(reader, null);
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
    const byStyle = Object.values(READERS).map((reader) => composeSampleEmails(reader, null));
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
    const blend = composeSampleEmails(READERS.blend, null).map((e) => e.description);
    const pure = composeSampleEmails(partyAt('Noor', AXIS.I), null).map((e) => e.description);
    for (const [i, description] of blend.entries()) expect(description).not.toBe(pure[i]);
  });
});
