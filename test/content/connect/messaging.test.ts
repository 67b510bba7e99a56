import { describe, expect, it } from 'vitest';
import {
  CHECKS,
  MAX_RECOMMENDATIONS,
  MESSAGE_MAX_CHARS,
  PER_WORD_CHECK,
  messagingLibraryProblems,
  recommendMessage,
  type MessageRecommendation,
} from '../../../src/content/connect/messaging.ts';
import { scanMessage } from '../../../src/content/connect/message-scan.ts';
import { HEDGE } from '../../../src/content/hedge.ts';
import { composeConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { TENTATIVE_CONFIDENCE } from '../../../src/content/reading.ts';
import type { Party, Style } from '../../../src/content/party.ts';
import { AXIS, partyAt, tagsIn, withConfidence } from './helpers.ts';
import { shipped } from '../../helpers/content.ts';

const D = partyAt('Dana', AXIS.D);
const I = partyAt('Ivo', AXIS.I);
const S = partyAt('Sara', AXIS.S);
const C = partyAt('Cleo', AXIS.C);

function about(text: string, recs: MessageRecommendation[], passage: string): MessageRecommendation[] {
  return recs.filter((r) => text.slice(r.start, r.end) === passage);
}

describe('the messaging advice files', () => {
  it('have a known check per entry, only {name}/{quote}/{words}/{limit}, and advice for every style where they apply', () => {
    const library = shipped.messaging;
    expect(messagingLibraryProblems(library)).toEqual([]);
    const { advice } = library;
    expect(Object.keys(advice).sort()).toEqual([...CHECKS].sort());
    for (const check of ['greeting', 'wrong_name', 'pressure', 'booked', 'leverage', 'brush_off', 'vague', 'hedge', 'filler', 'exclamation', 'long_sentence', 'too_long', 'missing_ask', 'fits', 'short_fits'] as const) {
      expect(Object.keys(advice[check]).sort(), check).toEqual(['C', 'D', 'I', 'S']);
    }
  });

  it.each([
    [{ greeting: { D: { text: '{name} wants it short.', tentative: '{name} wants it short, surely.' } } }, 'advice.json greeting.D: tentative must say it as a tendency'],
    [{ greeting: { D: { text: '{name} wants it short.', tentative: '{name} wants it short.' } } }, 'tentative repeats the firm text'],
    [{ greeting: { D: { text: '{name} wants it short.' } } }, 'advice.json greeting.D: must be a string, or {"text", "tentative"} strings'],
    [{ greeting: { D: { text: '{name} wants it.', tentative: '{first} may want it.' } } }, 'tentative: placeholder {first} not allowed here'],
    [{ greeting: { D: '{name} wants it **short**.' } }, 'no **bold** in message advice'],
    [{ greeting: { X: 'Hello.' } }, 'advice.json greeting.X: style must be D, I, S or C'],
    [{ greetings: { D: 'Hello.' } }, 'advice.json greetings: unknown check'],
  ])('refuses broken advice (%#)', (change, problem) => {
    const library = structuredClone(shipped.messaging);
    const advice: Record<string, unknown> = { ...library.advice };
    for (const [check, byStyle] of Object.entries(change)) advice[check] = { ...(advice[check] as object), ...byStyle };
    expect(messagingLibraryProblems({ ...library, advice }).join('\n')).toContain(problem);
  });

  it.each([
    [{ pressure: { text: 'Your style is direct.', reader: 'Your style is direct.' } }, 'sender.json D.pressure: reader: repeats the firm text'],
    [{ pressure: { text: 'Your style is direct.', sender: 'Your style may be direct.', reader: 'This reader may mind.' } }, '"both" goes with "sender" and "reader"'],
    [{ pressure: { text: 'Your style is direct.', both: 'Your style may be direct.' } }, 'needs a "sender" or "reader" variant'],
    [{ pressure: { text: 'Your style is direct.', tentative: 'Your style may be direct.' } }, 'unknown keys: tentative'],
  ])("refuses a broken note on the sender's habit (%#)", (change, problem) => {
    const library = structuredClone(shipped.messaging);
    const sender = { ...library.sender, D: { ...library.sender.D, ...change } };
    expect(messagingLibraryProblems({ ...library, sender }).join('\n')).toContain(problem);
  });
});

describe('recommendMessage', () => {
  it('points at the right passage in a text with emoji and accents', () => {
    const text = 'Hi Sara 👋🏽, señor Müller’s café team 🎉 needs the report ASAP — it’s urgent!! Maybe we could just meet?';
    const recs = recommendMessage(text, I, S, shipped.messaging);
    for (const word of ['ASAP', 'urgent']) expect(about(text, recs, word), word).toHaveLength(1);
    expect(about(text, recs, 'Maybe')).toHaveLength(0); // a couple of hedges suit an S reader
    expect(about(text, recs, '!!')).toHaveLength(1);
    for (const r of recs) {
      expect(r.start).toBeGreaterThanOrEqual(0);
      expect(r.end).toBeGreaterThan(r.start);
      expect(r.end).toBeLessThanOrEqual(text.length);
      expect(Number.isInteger(r.start) && Number.isInteger(r.end)).toBe(true);
    }
  });

  it('quotes a passage after an emoji whole and escaped', () => {
    const text = 'Hello Cleo, 🚀🚀 our <b>best-in-class</b> tool is here.';
    const [rec] = about(text, recommendMessage(text, D, C, shipped.messaging), 'best-in-class');
    expect(rec?.recommendation).toContain('<span class="rapport-quote">“best-in-class”</span>');
  });

  it('finds the issues it claims, for the reader it names', () => {
    const text =
      'Our platform delivers huge results and is best in class. I think you should maybe just sign up, and honestly we must close this ASAP! Let me know.';
    const forC = recommendMessage(text, I, C, shipped.messaging);
    expect(about(text, forC, 'huge')[0]?.recommendation).toMatch(/figure/);
    expect(about(text, forC, 'best in class')).toHaveLength(1);
    expect(about(text, forC, 'I think')).toHaveLength(1);
    expect(about(text, forC, 'ASAP')[0]?.recommendation).toMatch(/Cleo/);
    expect(about(text, forC, '!')).toHaveLength(1);
    // No greeting: the first sentence is pointed at.
    expect(forC.some((r) => r.start === 0 && r.recommendation.includes('greeting'))).toBe(true);
    // A D reader gets the same issues in D terms.
    const forD = recommendMessage(text, I, D, shipped.messaging);
    expect(about(text, forD, 'ASAP')[0]?.recommendation).not.toEqual(about(text, forC, 'ASAP')[0]?.recommendation);
  });

  it('gives D, I, S and C readers different advice on the same draft', () => {
    const text = 'Team, the launch slipped and we must fix it ASAP. Amazing things are coming!!! Reply today.';
    const outputs = [D, I, S, C].map((reader) => JSON.stringify(recommendMessage(text, partyAt('Al', AXIS.C), reader, shipped.messaging)));
    expect(new Set(outputs).size).toBe(4);
  });

  it('checks length against the reader: a long draft is too long for D, not for C', () => {
    const sentence = 'The team reviewed the figures for the third quarter in detail. ';
    const text = `Hi, ${sentence.repeat(20)}Could you confirm by Friday?`;
    const longFor = (reader: typeof D): boolean => recommendMessage(text, I, reader, shipped.messaging).some((r) => /words the message is long/.test(r.recommendation));
    expect(longFor(D)).toBe(true);
    expect(longFor(C)).toBe(false);
  });

  it('flags overly long sentences with their word count', () => {
    const long = 'This sentence keeps going with one clause after another and another after that because nobody stopped to split it into parts that a reader could follow easily today';
    const text = `Hello Dana, ${long}. Can we talk?`;
    const recs = recommendMessage(text, S, D, shipped.messaging);
    const rec = recs.find((r) => r.recommendation.includes('words. Split'));
    expect(rec).toBeDefined();
    expect(text.slice(rec?.start, rec?.end)).toContain('nobody stopped');
  });

  it('notices a missing ask, and a D reader told the ask too late', () => {
    const noAsk = 'Hello Sara, I wanted to tell you about the new schedule for the spring.';
    expect(recommendMessage(noAsk, D, S, shipped.messaging).some((r) => noAsk.slice(r.start, r.end) === noAsk && /request/.test(r.recommendation))).toBe(true);
    const late = `Hi Dana, ${'We spent the quarter on the rollout and the training. '.repeat(8)}Can you approve the budget by Friday?`;
    const recs = recommendMessage(late, C, D, shipped.messaging);
    expect(recs.some((r) => late.slice(r.start, r.end) === 'Can you approve the budget by Friday?' && /first line/.test(r.recommendation))).toBe(true);
  });

  it('asks for warmth from I and S readers only', () => {
    const text = 'Hello, the contract is attached. Could you sign it by Friday the 12th at noon please?';
    const warmthFor = (reader: typeof D): boolean => recommendMessage(text, D, reader, shipped.messaging).some((r) => /warmth|appreciation/.test(r.recommendation));
    expect(warmthFor(I)).toBe(true);
    expect(warmthFor(S)).toBe(true);
    expect(warmthFor(D)).toBe(false);
    expect(warmthFor(C)).toBe(false);
  });

  it("adds a note on the sender's own habit once; a same-style sender gets what the draft shows, not their style", () => {
    const text = 'Hi Cleo, amazing news, huge wins, incredible results! Can we talk?';
    const fromI = recommendMessage(text, I, C, shipped.messaging).filter((r) => r.recommendation.includes('rapport-sender'));
    expect(fromI.length).toBeGreaterThan(0);
    expect(fromI.filter((r) => r.recommendation.includes('big words'))).toHaveLength(1);
    const fromC = recommendMessage(text, partyAt('Cy', AXIS.C), C, shipped.messaging).filter((r) => r.recommendation.includes('rapport-sender'));
    expect(fromC.map((r) => /<span class="rapport-sender">([^<]*)<\/span>/.exec(r.recommendation)?.[1])).toEqual([
      'This draft makes 3 claims with no figure behind them; if big words come easily to you, remember that evidence persuades more readers.',
    ]);
    expect(JSON.stringify(fromC)).not.toMatch(/Your own style/);
  });

  it('never returns the submitted text unescaped', () => {
    const text = 'Hi <script>alert("x")</script> this is URGENT <img src=x onerror=alert(1)> and best-in-class<b>!!</b>';
    const recs = recommendMessage(text, I, C, shipped.messaging);
    expect(recs.length).toBeGreaterThan(0);
    for (const r of recs) {
      expect(r.recommendation).not.toContain('<script');
      expect(r.recommendation).not.toContain('<img');
      for (const tag of tagsIn(r.recommendation)) expect(tag).toMatch(/^(<span class="rapport-(quote|sender)">|<\/span>)$/);
    }
  });

  it('is safe on any string', () => {
    for (const text of ['', ' ', '\n\n', '!!!', '?', '🎉', '\uD800', 'a', '….', '\u0000\u0001', 'x'.repeat(5)]) {
      const recs = recommendMessage(text, D, S, shipped.messaging);
      for (const r of recs) expect(r.end).toBeLessThanOrEqual(text.length);
    }
    expect(recommendMessage('', D, S, shipped.messaging)).toEqual([]);
  });

  it('caps the number of recommendations and of one kind', () => {
    const text = `Hi Cleo, ${'This is urgent, you must do it ASAP! Maybe. '.repeat(50)}`;
    const recs = recommendMessage(text, D, C, shipped.messaging);
    expect(recs.length).toBeLessThanOrEqual(MAX_RECOMMENDATIONS);
    expect(recs.filter((r) => ['urgent', 'must', 'ASAP'].includes(text.slice(r.start, r.end))).length).toBe(PER_WORD_CHECK);
    expect(recs.filter((r) => text.slice(r.start, r.end) === 'Maybe').length).toBe(PER_WORD_CHECK);
    expect(recs.filter((r) => text.slice(r.start, r.end) === '!').length).toBeLessThanOrEqual(3);
  });

  it('is linear: a 20,000-character single word and a maximal text finish quickly', () => {
    // The bound is generous (a fast machine takes a few ms); it catches backtracking, not jitter.
    for (const text of ['a'.repeat(MESSAGE_MAX_CHARS), `${'!'.repeat(MESSAGE_MAX_CHARS)}`, `best${' -'.repeat(MESSAGE_MAX_CHARS / 2)}`, 'just '.repeat(MESSAGE_MAX_CHARS / 5)]) {
      // The best of three: a loaded machine can set one run aside for a while.
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i += 1) {
        const start = performance.now();
        recommendMessage(text, D, C, shipped.messaging);
        fastest = Math.min(fastest, performance.now() - start);
      }
      expect(fastest).toBeLessThan(500);
    }
  });

  it('is deterministic', () => {
    const text = 'Hey Ivo, we maybe need this ASAP!';
    expect(recommendMessage(text, D, I, shipped.messaging)).toEqual(recommendMessage(text, D, I, shipped.messaging));
  });
});

describe('scanMessage', () => {
  it('splits sentences at terminal punctuation and line breaks, with UTF-16 offsets', () => {
    const text = 'Olá 😀 José! Second line?\nThird';
    const scan = scanMessage(text);
    expect(scan.sentences.map((s) => text.slice(s.start, s.end))).toEqual(['Olá 😀 José!', 'Second line?', 'Third']);
    expect(scan.tokens.map((t) => text.slice(t.start, t.end))).toEqual(['Olá', 'José', 'Second', 'line', 'Third']);
    expect(scan.sentences[1]?.question).toBe(true);
  });

  it('reads words joined by an apostrophe as one, letters beyond ASCII and the BMP included, lower-cased with a straight apostrophe', () => {
    const text = "O’Neil's café — don’t 𝐀𝐁c 2.4x' 'quoted' İ";
    expect(scanMessage(text).tokens.map((t) => t.word)).toEqual(["o'neil's", 'café', "don't", '𝐀𝐁c'.toLowerCase(), '2', '4x', 'quoted', 'İ'.toLowerCase()]);
    expect(scanMessage(text).tokens.map((t) => text.slice(t.start, t.end))).toEqual(['O’Neil\'s', 'café', 'don’t', '𝐀𝐁c', '2', '4x', 'quoted', 'İ']);
  });

  it('does not end a sentence at the full stop of a title, an abbreviation, an address or a decimal', () => {
    const text = 'Dr. Patel sent approx. 2.4 GB to example.com, e.g. the logs. Then we stopped.';
    expect(scanMessage(text).sentences.map((s) => text.slice(s.start, s.end))).toEqual(['Dr. Patel sent approx. 2.4 GB to example.com, e.g. the logs.', 'Then we stopped.']);
  });
});

describe('recommendMessage on a draft that already fits', () => {
  it('says so for the whole text, and only then', () => {
    const text = 'Hi Dana, can you approve the 12% budget increase for Q3 by Friday?';
    const recs = recommendMessage(text, D, D, shipped.messaging);
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({ start: 0, end: text.length });
    expect(recs[0]?.recommendation).toContain('already suits Dana');
    const worse = `${text} It is urgent!`;
    expect(recommendMessage(worse, D, D, shipped.messaging).some((r) => r.recommendation.includes('already suits'))).toBe(false);
  });

  it('answers a short draft too, saying that only its wording could be checked', () => {
    const text = 'Hi there, please send the numbers.';
    for (const reader of [D, I, S, C]) {
      const recs = recommendMessage(text, D, reader, shipped.messaging);
      expect(recs).toHaveLength(1);
      expect(recs[0]).toMatchObject({ start: 0, end: text.length });
      expect(recs[0]?.recommendation).toMatch(/^Under eight words only the wording can be checked/);
    }
    expect(recommendMessage('Hi Theo, send the numbers ASAP.', D, D, shipped.messaging).some((r) => r.recommendation.startsWith('Under eight words'))).toBe(false);
  });

  it('takes an ask put indirectly, with no question mark, as an ask', () => {
    const text = 'Hi Cleo, I wanted to ask whether you might have time next week to review the 3 attached budget figures. Thanks, Dana';
    for (const [style, reader] of Object.entries({ D, I, S, C })) {
      expect(recommendMessage(text, D, reader, shipped.messaging).some((r) => /without an ask|without an invitation|without saying what you need|never says what you need/.test(r.recommendation)), style).toBe(false);
    }
    const noAsk = 'Hi Cleo, the 3 attached budget figures came in this morning and they look fine to me. Thanks, Dana';
    const missing = recommendMessage(noAsk, D, C, shipped.messaging).filter((r) => r.recommendation.includes('never says what you need'));
    // Pointed at the body's last sentence, not at the sign-off.
    expect(missing.map((r) => noAsk.slice(r.start, r.end))).toEqual(['Hi Cleo, the 3 attached budget figures came in this morning and they look fine to me.']);
  });

  it('does not take an offer to answer questions, or a guess at the reader\'s thoughts, for an ask', () => {
    for (const closing of ['Feel free to ask if anything is unclear.', 'You may be wondering if this affects your team: it does not.', 'The auditors will ask whether the totals are final.']) {
      const text = `Hi Cleo, the 3 attached budget figures came in this morning and they look fine to me. ${closing}`;
      expect(recommendMessage(text, D, C, shipped.messaging).some((r) => r.recommendation.includes('never says what you need')), closing).toBe(true);
    }
  });

  it('points a missing ask at the last sentence however short, when it is not a sign-off', () => {
    const text = 'hey this is really late!!! it is huge';
    const missing = recommendMessage(text, D, D, shipped.messaging).filter((r) => r.recommendation.startsWith('The message ends without an ask'));
    expect(missing.map((r) => text.slice(r.start, r.end))).toEqual(['it is huge']);
    const body = 'Hi Dana, the 3 figures for Q3 came in this morning and they look fine.';
    for (const [signOff, last] of [['Kind regards, Dana Smith', body], ['Many thanks,\nDana', body], ['Done.', 'Done.'], ['Thanks for everything.', 'Thanks for everything.']]) {
      const whole = `${body}\n${signOff}`;
      const pointed = recommendMessage(whole, D, D, shipped.messaging).filter((r) => r.recommendation.startsWith('The message ends without an ask'));
      expect(pointed.map((r) => whole.slice(r.start, r.end)), signOff).toEqual([last]);
    }
  });

  it('asks D and C readers to cut pleasantries that I and S readers welcome', () => {
    const text = 'Hi, I hope you are well. Could you send the Q3 report with the 4 regional totals by Friday?';
    const cut = (reader: typeof D): boolean => recommendMessage(text, D, reader, shipped.messaging).some((r) => text.slice(r.start, r.end) === 'hope you are well');
    expect(cut(D)).toBe(true);
    expect(cut(C)).toBe(true);
    expect(cut(I)).toBe(false);
    expect(cut(S)).toBe(false);
  });
});

describe('recommendMessage on an announcement', () => {
  const text = `Hello Sara,

I hope you are well! From Monday we are moving to the new ticketing system, and the training runs on Wednesday.

Thanks,
Al`;

  it('asks an S reader for reassurance about a change, and points the missing ask at the body, not the signature', () => {
    const recs = recommendMessage(text, D, S, shipped.messaging);
    expect(recs.some((r) => text.slice(r.start, r.end) === 'moving to' && r.recommendation.includes('supported'))).toBe(true);
    const ask = recs.find((r) => r.recommendation.includes('without saying what you need'));
    expect(text.slice(ask?.start, ask?.end)).toMatch(/^From Monday .*Wednesday\.$/);
    expect(recommendMessage(text, D, C, shipped.messaging).some((r) => r.recommendation.includes('supported'))).toBe(false);
    const reassured = text.replace('Wednesday.', 'Wednesday. I am happy to help with any questions.');
    // An instruction is an ask too: "everyone must complete the training" says what is needed.
    const instructed = text.replace('the training runs on Wednesday', 'everyone must complete the training by Wednesday');
    expect(recommendMessage(instructed, D, S, shipped.messaging).some((r) => r.recommendation.includes('without saying what you need'))).toBe(false);
    expect(recommendMessage(reassured, D, S, shipped.messaging).some((r) => r.recommendation.includes('supported'))).toBe(false);
  });
});

describe('recommendMessage greetings', () => {
  it.each(['Hi Dana,', 'Good morning Dana,', 'Dana,', 'Hola Dana,', 'Olá Dana,', 'Dear Dana,'])('accepts "%s" as a greeting', (opening) => {
    const text = `${opening} can you approve the 12% budget increase for Q3 by Friday?`;
    expect(recommendMessage(text, D, D, shipped.messaging).some((r) => r.recommendation.includes('greeting'))).toBe(false);
  });
});

describe('recommendMessage on drafts read by a person', () => {
  it('counts an imperative as the ask, also after the reader\'s name', () => {
    for (const text of ['Ivo, send me the Q3 figures by Friday. We must cut the venue budget by 15%.', 'Hi Ivo. Review the attached plan and approve it by Friday.']) {
      expect(recommendMessage(text, D, I, shipped.messaging).filter((r) => /ends without/.test(r.recommendation)), text).toEqual([]);
    }
    // A verb that only opens a later clause is no ask.
    const none = 'Hi Ivo, we send the report every month and it went out this morning.';
    expect(recommendMessage(none, D, I, shipped.messaging).some((r) => /ends without/.test(r.recommendation))).toBe(true);
  });

  it('reads praise of the reader as warmth, not as a claim without a figure', () => {
    const text = 'Hola Sara! Muchas gracias for the help last week with the account, you were amazing. Could we go over the next steps together on Tuesday?';
    const recs = recommendMessage(text, I, S, shipped.messaging);
    expect(recs.filter((r) => /sales pitch|appreciation/.test(r.recommendation))).toEqual([]);
    expect(about('Huge thanks to the team. Could we meet?', recommendMessage('Huge thanks to the team. Could we meet?', I, D, shipped.messaging), 'Huge')).toEqual([]);
    // A claim about the product is still a claim.
    const pitch = 'Hi Sara, our new dashboard is amazing and will save your team time. Could we talk on Tuesday?';
    expect(about(pitch, recommendMessage(pitch, I, S, shipped.messaging), 'amazing')).toHaveLength(1);
  });

  it('counts thanks in another language as warmth', () => {
    const text = 'Hola Sara, muchas gracias. The contract is attached. Could you sign it by Friday the 12th at noon please?';
    expect(recommendMessage(text, D, S, shipped.messaging).some((r) => /appreciation/.test(r.recommendation))).toBe(false);
  });

  it('does not call a run of exclamation marks "the exclamation mark"', () => {
    const text = 'Hey Dana!!! Could you sign the contract by Friday the 12th?';
    const [run] = about(text, recommendMessage(text, I, D, shipped.messaging), '!!!');
    expect(run?.recommendation).toMatch(/^Use a full stop or a comma instead/);
    expect(run?.recommendation).not.toMatch(/the exclamation mark\b/);
  });
});

describe("recommendMessage for a reader whose placement is tentative (thin evidence, as the reader's own profile reads it)", () => {
  const thin = (party: Party): Party => withConfidence(party, (TENTATIVE_CONFIDENCE - 5) / 100);
  const notes = (recs: MessageRecommendation[]): string[] => recs.flatMap((r) => [...r.recommendation.matchAll(/<span class="rapport-tentative">[^<]*<\/span>/g)].map((m) => m[0]));
  const draft = 'Hi Dana, I think we must close this ASAP! Could you sign by Friday?';

  it('says what it says of the reader as a tendency, and ends the first recommendation with a note that it is tentative', () => {
    const recs = recommendMessage(draft, I, thin(D), shipped.messaging);
    expect(recs.map((r) => r.recommendation.replace(/ <span class="rapport-(tentative|sender)">.*?<\/span>/g, ''))).toEqual([
      'Cut <span class="rapport-quote">“I think”</span>. Hedging makes the request sound unsure, and Dana may give less weight to a case its author does not seem to believe.',
      '<span class="rapport-quote">“must”</span> pushes, and Dana may not like being pushed. Give the actual deadline and the reason for it, and leave the decision with Dana.',
      '<span class="rapport-quote">“ASAP”</span> pushes, and Dana may not like being pushed. Give the actual deadline and the reason for it, and leave the decision with Dana.',
      'Use a full stop or a comma instead: Dana is more likely to respond to a confident statement than to added emphasis.',
    ]);
    expect(notes(recs)).toEqual([
      '<span class="rapport-tentative">There is not much of Dana\'s writing to go on, so this advice is tentative: read it as what Dana may tend to prefer, and check it against how they actually reply.</span>',
    ]);
    expect(recs[0]?.recommendation).toMatch(/<span class="rapport-tentative">[^<]*<\/span>$/);
    // The sender is confident: the note on their own habit stays as it was.
    expect(recs[3]?.recommendation).toContain('<span class="rapport-sender">Your own style is enthusiastic, and exclamation marks come naturally;');
    expect(JSON.stringify(recs)).not.toMatch(/Dana does not like|Dana gives less weight|Dana responds to/);
    for (const r of recs) for (const tag of tagsIn(r.recommendation)) expect(tag).toMatch(/^(<span class="rapport-(quote|sender|tentative)">|<\/span>)$/);
  });

  it('gives a confident reader today\'s text, word for word, at any evidence level from the threshold up', () => {
    const today = [
      { start: 9, end: 16, recommendation: 'Cut <span class="rapport-quote">“I think”</span>. Hedging makes the request sound unsure, and Dana gives less weight to a case its author does not seem to believe.' },
      { start: 20, end: 24, recommendation: '<span class="rapport-quote">“must”</span> pushes, and Dana does not like being pushed. Give the actual deadline and the reason for it, and leave the decision with Dana.' },
      { start: 36, end: 40, recommendation: '<span class="rapport-quote">“ASAP”</span> pushes, and Dana does not like being pushed. Give the actual deadline and the reason for it, and leave the decision with Dana.' },
      {
        start: 40,
        end: 41,
        recommendation:
          'Use a full stop or a comma instead: Dana responds to a confident statement, not to added emphasis. <span class="rapport-sender">Your own style is enthusiastic, and exclamation marks come naturally; save them for people who share it.</span>',
      },
    ];
    expect(recommendMessage(draft, I, D, shipped.messaging)).toEqual(today);
    for (const confidence of [TENTATIVE_CONFIDENCE / 100, 0.3, 0.95]) {
      expect(recommendMessage(draft, withConfidence(I, confidence), withConfidence(D, confidence), shipped.messaging), String(confidence)).toEqual(today);
    }
  });

  it("uses the individual profile's threshold: the advice is tentative exactly where the reader's C2 profile opens as tentative", () => {
    for (const confidence of [0.05, (TENTATIVE_CONFIDENCE - 1) / 100, TENTATIVE_CONFIDENCE / 100, 0.3, 0.95]) {
      const reader = withConfidence(D, confidence);
      const hedged = notes(recommendMessage(draft, I, reader, shipped.messaging)).length === 1;
      expect(hedged, String(confidence)).toBe(/tentative/.test(composeConnectRecommendations(reader, shipped).overview));
      expect(hedged, String(confidence)).toBe(confidence * 100 < TENTATIVE_CONFIDENCE);
    }
  });

  /** Drafts that between them set off every check for every style. */
  const sentence = 'The team reviewed the figures for the third quarter in detail and found that the report needs another pass before it goes to the board and the wider group of investors next month';
  const DRAFTS = [
    'The new system is huge and we must switch ASAP!! I think maybe we could just perhaps move over, it is kind of amazing!! Really!!',
    `Hello there, ${`${sentence}. `.repeat(12)}`,
    `Hi, ${'We spent the quarter on the rollout and the training of the new team. '.repeat(8)}Can you approve the budget by Friday?`,
    'Hi, I hope you are well. Could you send the Q3 report with the 4 regional totals by Friday?',
    'Hello, we are moving to the new ticketing system and everyone has to complete the training soon.',
    'Hi Dana, can you approve the 12% budget increase for Q3 by Friday?',
    'Hi Dana, thanks so much for the lovely session yesterday! Could we meet on Tuesday at 10 to plan the 3 next steps?',
    'Hello Dana, thank you for your help. Could you confirm the 3 budget figures in the attached Q3 report by Friday 12 May?',
    'Hi Theo, please send the numbers.',
    "Hi Dana, I've booked a demo for you on Friday. If you do not pay by Friday, we will suspend your account. Basically, it is a no-brainer. Reply today.",
  ];
  const STYLE_PARTIES: Record<Style, Party> = { D, I, S, C };
  /** A template as a pattern over the output for Dana: placeholders stand for what fills them. */
  const pattern = (template: string): RegExp =>
    new RegExp(
      template
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\\\{name\\\}/g, 'Dana')
        .replace(/\\\{quote\\\}/g, '<span class="rapport-quote">[^<]*</span>')
        .replace(/\\\{(words|limit)\\\}/g, '\\d+'),
    );

  it('never states the reader\'s style as fact: every text written twice is in its tentative wording, and each of them is reached', () => {
    const { advice } = shipped.messaging;
    const reached = new Set<string>();
    for (const [style, party] of Object.entries(STYLE_PARTIES) as [Style, Party][]) {
      const reader = thin({ ...party, firstName: 'Dana' });
      const confident = { ...party, firstName: 'Dana' };
      for (const text of DRAFTS) {
        const sure = recommendMessage(text, C, confident, shipped.messaging);
        const unsure = recommendMessage(text, C, reader, shipped.messaging);
        // The same passages, the same checks: only the wording about the reader differs.
        expect(unsure.map(({ start, end }) => [start, end]), text).toEqual(sure.map(({ start, end }) => [start, end]));
        expect(notes(unsure), text).toHaveLength(unsure.length > 0 ? 1 : 0);
        for (const [check, byStyle] of Object.entries(advice)) {
          const value = byStyle[style];
          if (value === undefined || typeof value === 'string') continue;
          for (const r of unsure) {
            expect(r.recommendation, `${check}.${style}`).not.toMatch(pattern(value.text));
            if (pattern(value.tentative).test(r.recommendation)) reached.add(`${check}.${style}`);
          }
        }
        for (const [i, r] of unsure.entries()) {
          const plain = r.recommendation.replace(/ <span class="rapport-(tentative|sender)">.*?<\/span>/g, '');
          if (plain !== sure[i]?.recommendation.replace(/ <span class="rapport-sender">.*?<\/span>/g, '')) expect(plain).toMatch(HEDGE);
        }
      }
    }
    const written = Object.entries(advice).flatMap(([check, byStyle]) => Object.entries(byStyle).filter(([, v]) => typeof v !== 'string').map(([style]) => `${check}.${style}`));
    expect([...written].filter((key) => !reached.has(key))).toEqual([]);
  });

  it("hedges the note on the sender's own habit for a tentative sender, and its words about the reader for a tentative reader", () => {
    const text = 'Hi Dana, amazing news, huge wins, incredible results! Can we talk?';
    const senderNote = (sender: Party, reader: Party): string[] =>
      recommendMessage(text, sender, reader, shipped.messaging).flatMap((r) => [...r.recommendation.matchAll(/<span class="rapport-sender">([^<]*)<\/span>/g)].map((m) => m[1] ?? ''));
    const dana = { ...C, firstName: 'Dana' };
    expect(senderNote(I, dana)).toContain('Your own style is enthusiastic; big words come easily to you, but evidence persuades more readers.');
    expect(senderNote(thin(I), dana)).toContain('Your own style may be enthusiastic; if big words come easily to you, remember that evidence persuades more readers.');
    expect(senderNote(thin(I), dana).join(' ')).not.toMatch(/Your own style is/);
    // A note that speaks of the reader too: "matters to this reader".
    const cold = 'Hello, the contract is attached. Could you sign it by Friday the 12th at noon please?';
    const warmthNote = (sender: Party, reader: Party): string | undefined =>
      recommendMessage(cold, sender, reader, shipped.messaging).map((r) => /<span class="rapport-sender">([^<]*)<\/span>/.exec(r.recommendation)?.[1]).find((n) => n !== undefined);
    const sara = { ...S, firstName: 'Dana' };
    expect(warmthNote(C, sara)).toBe('Your own style is matter-of-fact; a line of warmth feels unnecessary to you but matters to this reader.');
    expect(warmthNote(C, thin(sara))).toBe('Your own style is matter-of-fact; a line of warmth feels unnecessary to you but is likely to matter to this reader.');
    expect(warmthNote(thin(C), sara)).toBe('Your own style may be matter-of-fact; a line of warmth can feel unnecessary to you but matters to this reader.');
    expect(warmthNote(thin(C), thin(sara))).toBe('Your own style may be matter-of-fact; a line of warmth can feel unnecessary to you but is likely to matter to this reader.');
  });

  it('names an unknown reader as "your contact" in the note, and says nothing when there is nothing to say', () => {
    const recs = recommendMessage('Hi, please send the numbers.', D, thin({ ...C, firstName: null }), shipped.messaging);
    expect(notes(recs)).toEqual([
      '<span class="rapport-tentative">There is not much of your contact\'s writing to go on, so this advice is tentative: read it as what your contact may tend to prefer, and check it against how they actually reply.</span>',
    ]);
    expect(recommendMessage('   ', D, thin(C), shipped.messaging)).toEqual([]);
  });
});
