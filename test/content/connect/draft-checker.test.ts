/**
 * The C4 draft checker reads a draft as a reader would (issue 24): each kind of issue gets a
 * span on the offending words, the words that look alike but are no issue get none, and over the
 * labelled drafts (training/drafts/) no span is longer than a sentence.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reviewDraft, type CheckedRecommendation } from '../../../src/content/connect/messaging.ts';
import { scanMessage } from '../../../src/content/connect/message-scan.ts';
import type { Style } from '../../../src/content/party.ts';
import { SPLITS, checkerSpans, checkoutSpans, precision, readDrafts, recall, score, spansOverASentence } from '../../../training/drafts/score.ts';
import { AXIS, partyAt } from './helpers.ts';
import { shipped } from '../../helpers/content.ts';

/** What the checker says on a draft to `reader` (of `style`) from a writer of `writer`'s style: each as [check, quoted words]. */
function said(text: string, reader: string, style: Style, writer: Style = style): [string, string][] {
  return reviewDraft(text, partyAt('Sam', AXIS[writer]), partyAt(reader, AXIS[style]), shipped.messaging).map((r: CheckedRecommendation) => [r.check, text.slice(r.start, r.end)]);
}
const PUSHING = new Set(['pressure', 'booked', 'leverage', 'brush_off']);
const pushes = (found: [string, string][]): string[] => found.filter(([check]) => PUSHING.has(check)).map(([, words]) => words);
const of = (found: [string, string][], check: string): string[] => found.filter(([c]) => c === check).map(([, words]) => words);

describe('the draft checker on pressure', () => {
  it('catches every push in the draft of the issue: a demo booked without asking, an offer that expires today, a price rise, "Don\'t overthink it"', () => {
    const text =
      "Hi Marcus,\n\nGreat chatting at the expo. I've booked a demo for you on Thursday at 2pm so your team can see the dashboard in action. Our Q3 offer expires today, and after that the price goes up 30%. Don't overthink it!\n\nBest,\nJamie";
    const found = said(text, 'Marcus', 'D', 'I');
    expect(found).toContainEqual(['booked', "I've booked a demo for you"]);
    expect(found).toContainEqual(['pressure', 'offer expires today']);
    expect(found).toContainEqual(['leverage', 'price goes up 30%']);
    expect(found).toContainEqual(['brush_off', "Don't overthink it"]);
    // Nothing in it asks Marcus anything.
    expect(of(found, 'missing_ask')).toEqual(["Don't overthink it!"]);
  });

  it('reads a threat with its condition as leverage, and leaves a consequence for nobody alone', () => {
    const text = "Hi Rosa,\n\nYour account is 60 days overdue. If payment is not received by Friday, we will suspend your service. We'll have to cancel the picnic if it rains, too. Could you confirm the date?";
    expect(pushes(said(text, 'Rosa', 'D'))).toEqual(['we will suspend your service']);
  });

  it('takes "Just accept it" for a push, not for a hedge', () => {
    const text = 'Owen, the new rota is final. I know you wanted Fridays off, but there is nothing I can do this quarter. Just accept it and we will look again in the spring.';
    const found = said(text, 'Owen', 'S', 'D');
    expect(of(found, 'brush_off')).toEqual(['Just accept']);
    expect(of(found, 'hedge')).toEqual([]);
  });

  it("flags a demand made of the reader, not the writer's own haste", () => {
    const text = "Hi Rosa, I'll send the revised quote ASAP. Could you send me the floor plan ASAP?";
    const found = said(text, 'Rosa', 'D');
    expect(pushes(found)).toEqual(['ASAP']);
    expect(found.find(([check]) => check === 'pressure')).toBeDefined();
    const recs = reviewDraft(text, partyAt('Sam', AXIS.D), partyAt('Rosa', AXIS.D), shipped.messaging).filter((r) => r.check === 'pressure');
    expect(recs.map((r) => r.start)).toEqual([text.lastIndexOf('ASAP')]);
  });

  it('leaves a booking the reader asked for, and one offered to be moved, alone', () => {
    const text = "Hi Ravi, as you requested, I've booked the review for 12 July at 15:00 in Room 4B. If that time doesn't work, reply with two alternatives this week.";
    expect(pushes(said(text, 'Ravi', 'C'))).toEqual([]);
  });
});

describe('the draft checker on hedges and filler', () => {
  it('marks every "maybe" of five, for a C reader', () => {
    const text = 'Hello Ingrid,\n\nMaybe you have time this week to look at the vendor comparison? Maybe Thursday? It is maybe 10 pages, so maybe an hour at most. If not, maybe next week works.\n\nThanks,\nRuth';
    expect(of(said(text, 'Ingrid', 'C', 'S'), 'hedge')).toEqual(['Maybe', 'Maybe', 'maybe', 'maybe', 'maybe']);
  });

  it('marks every hedge for an S reader once there are two, and one alone not at all', () => {
    const two = 'Hi Sara, I think the rota works. Perhaps we could try it from Monday?';
    expect(of(said(two, 'Sara', 'S'), 'hedge')).toEqual(['I think', 'Perhaps']);
    const one = 'Hi Sara, I think the rota works. Could we try it from Monday?';
    expect(of(said(one, 'Sara', 'S'), 'hedge')).toEqual([]);
  });

  it('does not read a noun or an estimate as a hedge ("what kind of support", "roughly 30 people", "I just got back")', () => {
    const text = 'Hi Piet, I just got back from the site. Roughly 30 people start on Monday. What kind of support would your team need from us?';
    expect(of(said(text, 'Piet', 'C'), 'hedge')).toEqual([]);
  });

  it('marks every filler word, and the note on the habit counts them', () => {
    const text = 'Hi Rosa, basically the plan is fine. Honestly, the budget is literally the only open point, and to be honest it is actually small. Could you approve it?';
    expect(of(said(text, 'Rosa', 'D', 'C'), 'filler')).toEqual(['basically', 'Honestly', 'literally', 'to be honest', 'actually']);
    const notes = reviewDraft(text, partyAt('Sam', AXIS.D), partyAt('Rosa', AXIS.D), shipped.messaging).map((r) => /rapport-sender">([^<]*)/.exec(r.recommendation)?.[1]).filter((n) => n !== undefined);
    expect(notes).toEqual(['This draft has 5 filler words; they may be a habit of speech, and in writing they only add length.']);
  });
});

describe('the draft checker on claims', () => {
  it('asks no figure of small talk or of praise for the reader, and does of a claim about what the writer offers', () => {
    const lunch = "Hi Grace, thanks for organising Friday's team lunch! The taco truck was amazing and everyone is still talking about it. Could we book them again for the July offsite?";
    expect(of(said(lunch, 'Grace', 'C', 'I'), 'vague')).toEqual([]);
    const praise = 'Hi Grace, your feedback on the checkout flow was amazing. Could you share it with the design team?';
    expect(of(said(praise, 'Grace', 'C'), 'vague')).toEqual([]);
    const claim = 'Hi Grace, our platform is a game changer and customers see massive improvements. Could we talk on Tuesday?';
    expect(of(said(claim, 'Grace', 'C'), 'vague')).toEqual(['game changer', 'massive']);
    const figure = 'Hi Grace, our platform cut reporting time by 40% for 12 finance teams, a massive improvement. Could we talk on Tuesday?';
    expect(of(said(figure, 'Grace', 'C'), 'vague')).toEqual([]);
  });
});

describe('the draft checker on the greeting and the ask', () => {
  const body = "\n\nCould you send me the slides from Tuesday's review? I need them for the board pack.\n\nThanks,\nSam";

  it('points a greeting to someone else at the name, and accepts a short form, a title or a group', () => {
    expect(said(`Hi Claire,${body}`, 'Chloé', 'D', 'C')).toEqual([['wrong_name', 'Claire']]);
    for (const [greeting, reader] of [['Hi Kate,', 'Katherine'], ['Dear Ms Okafor,', 'Tess'], ['Hi team,', 'Tess'], ['Hi Priya and Tom,', 'Tom'], ['Hi Chloe,', 'Chloé']]) {
      expect(of(said(`${greeting}${body}`, reader ?? '', 'D', 'C'), 'wrong_name'), greeting).toEqual([]);
    }
  });

  it('points a missing greeting at the first sentence', () => {
    const text = 'Quick update on the pricing test. The new page converts 3.1% against 2.4% on the old one. Should we switch all traffic on Monday?';
    expect(of(said(text, 'Quentin', 'C'), 'greeting')).toEqual(['Quick update on the pricing test.']);
  });

  it('asks for an ask where a draft only informs, but not on a thank-you note', () => {
    const report = 'Hi Rosa,\n\nThe Q3 report is attached. The figures for Lisbon are final and the Porto figures follow next week. Let me know if you have any questions.\n\nBest,\nLin';
    expect(of(said(report, 'Rosa', 'C', 'I'), 'missing_ask')).toEqual(['Let me know if you have any questions.']);
    const thanks = 'Hi Rosa,\n\nThank you so much for covering the front desk on Friday. The whole team noticed, and it made a hard week easier.\n\nBest,\nLin';
    expect(of(said(thanks, 'Rosa', 'S', 'I'), 'missing_ask')).toEqual([]);
  });
});

describe('the labelled drafts', () => {
  const drafts = readDrafts();

  it('hold at least 60 drafts, each issue marked on its own words, with a held-out part', () => {
    expect(drafts.length).toBeGreaterThanOrEqual(60);
    expect(drafts.filter((d) => d.split === 'heldout').length).toBeGreaterThanOrEqual(30);
    for (const d of drafts) for (const issue of d.issues) expect(d.text.slice(issue.start, issue.end)).toBe(issue.quote);
  });

  it('get no span longer than a sentence from the checker', () => {
    for (const d of drafts) {
      const spans = checkerSpans(d);
      expect(spansOverASentence(d, spans), d.id).toEqual([]);
      const sentences = scanMessage(d.text).sentences;
      for (const span of spans) expect(sentences.some((s) => s.start <= span.start && span.end <= s.end)).toBe(true);
    }
  });

  it('are read with at least 90 % precision and recall on each part, the held-out one included (the targets of issue 24)', () => {
    for (const split of SPLITS) {
      const { overall } = score(drafts.filter((d) => d.split === split), checkerSpans);
      expect(overall.issues, split).toBeGreaterThan(30);
      expect(precision(overall), split).toBeGreaterThanOrEqual(0.9);
      expect(recall(overall), split).toBeGreaterThanOrEqual(0.9);
    }
  });
});

describe('npm run eval -- --drafts --before <checkout>', () => {
  it('reads a checkout whose content comes from the context loader: this one, span for span as the checker itself', async () => {
    const drafts = readDrafts();
    const spans = await checkoutSpans(fileURLToPath(new URL('../../../', import.meta.url)));
    const sorted = (list: { category: string; start: number; end: number }[]) => list.map((s) => `${s.category}@${s.start}-${s.end}`).sort();
    for (const d of drafts) expect(sorted(spans(d)), d.id).toEqual(sorted(checkerSpans(d)));
  });
});
