import { describe, expect, it } from 'vitest';
import { analyzeText, cleanLabelledText } from '../../../src/personality/text/index.ts';
import { loadModel } from '../../../src/personality/text/model.ts';
import { tokenize } from '../../../src/personality/text/tokenizer.ts';

const model = loadModel();

const RESUME = `JANE DOE
Senior Product Manager
jane.doe@example.com | +1 (555) 123-4567 | linkedin.com/in/janedoe | https://janedoe.dev
San Francisco, CA

SUMMARY
I love bringing people together around a problem and I get energy from workshops and customer calls.

EXPERIENCE
Senior Product Manager, Acme Corp
Jan 2019 – Present
• Led a team of eight engineers and two designers to rebuild our onboarding
- Partnered with sales to run more than fifty customer interviews.
Product Manager | Beta Inc | 2015 - 2018

Skills: Roadmapping, SQL, Figma, Jira, A/B testing
Languages: English, Spanish
Education
B.A. Economics, State University, 2011–2015
Page 1 of 2
Title: Head of Product
Phone: 555 987 6543
Bio: Outside work I coach a youth football team and I really enjoy cooking dinner for friends.`;

describe('cleanLabelledText', () => {
  const cleaned = cleanLabelledText(RESUME);
  const lines = cleaned.split('\n');

  it('keeps the author’s sentences, bullets included, each ending as a sentence', () => {
    expect(lines).toEqual([
      'I love bringing people together around a problem and I get energy from workshops and customer calls.',
      'Led a team of eight engineers and two designers to rebuild our onboarding.',
      'Partnered with sales to run more than fifty customer interviews.',
      'Outside work I coach a youth football team and I really enjoy cooking dinner for friends.',
    ]);
  });

  it('removes headings, labels, contacts, dates, skills, titles and page numbers', () => {
    for (const gone of ['JANE', 'SUMMARY', 'EXPERIENCE', 'Education', '@', '555', 'linkedin', 'https', '2019', 'Present', 'Figma', 'Spanish', 'Page', 'Head of Product', 'Acme', 'Bio:', '•']) {
      expect(cleaned).not.toContain(gone);
    }
  });

  it('removes inline contact details and date ranges from kept sentences', () => {
    const text = cleanLabelledText('I moved to Berlin (Mar 2020 - Jun 2021) and you can reach me at me@site.org or www.site.org any time.');
    expect(text).toBe('I moved to Berlin ( ) and you can reach me at or any time.');
  });

  it('leaves plain prose alone', () => {
    const prose = 'I grew up by the sea. My grandmother taught me to fish, and I still go out every summer.';
    expect(cleanLabelledText(prose)).toBe(prose);
  });
});

describe('analyzeText reads every text as labelled text', () => {
  it('counts only the author’s words', () => {
    const read = analyzeText(RESUME, { model });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.estimate.wordCount).toBe(tokenize(cleanLabelledText(RESUME)).words.length);
    expect(read.estimate.wordCount).toBeLessThan(tokenize(RESUME).words.length - 30);
  });

  it('reads a resume as the same text whatever the caller calls it, and as a resume by its shape', () => {
    const guessed = analyzeText(RESUME, { model });
    const asResume = analyzeText(RESUME, { model, textType: 'resume' });
    if (!guessed.ok || !asResume.ok) throw new Error('rejected');
    expect(guessed.estimate.wordCount).toBe(asResume.estimate.wordCount);
    expect(asResume.estimate.genre).toBe('resume');
  });

  it('joins lines a layout wrapped back into the sentence the writer wrote', () => {
    const wrapped = 'I led the migration of our billing platform to the new\nprovider and cut invoice errors by a third.';
    expect(cleanLabelledText(wrapped)).toBe('I led the migration of our billing platform to the new provider and cut invoice errors by a third.');
    // A new line that starts with a capital is a new line.
    expect(cleanLabelledText('I run the team of nine engineers here\nWe ship every week without fail.')).toBe('I run the team of nine engineers here.\nWe ship every week without fail.');
  });

  it('finds no personality in a resume without prose', () => {
    const formOnly = RESUME.split('\n')
      .filter((line) => !/^(I |•|-|Bio)/.test(line))
      .join('\n');
    expect(analyzeText(formOnly, { model })).toMatchObject({ ok: false, reason: 'too_short' });
  });
});
