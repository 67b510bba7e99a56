import { describe, expect, it } from 'vitest';
import { escapeHtml, safeHttpUrl } from '../../src/pages/html.ts';
import { renderNotFoundPage, renderProfilePage, type ProfilePageModel } from '../../src/pages/profile-page.ts';

function model(overrides: Partial<ProfilePageModel> = {}): ProfilePageModel {
  return {
    firstName: 'Maya',
    lastName: 'Okafor',
    photoUrl: 'https://images.example.com/maya.jpg',
    companyName: 'Northwind',
    title: 'Head of Sales',
    verified: true,
    personalities: {
      archetype: 'Catalyst',
      discType: 'I',
      discIntensity: 72,
      discPercentages: { d: 30, i: 43, s: 25, c: 2 },
      myersBriggsType: 'ENFP',
      enneagramType: 7,
    },
    qualities: ['Enthusiastic', 'Persuasive', 'Spontaneous'],
    discMapUrl: 'https://rapport.example.com/images/disc-map/0.423_0.380.svg',
    sections: [
      { title: 'Communication', phrases: ['Open with a story before the numbers.', 'Keep the energy up.'] },
      { title: 'Meetings', phrases: ['Leave room for ideas.'] },
      { title: 'Do', phrases: ['Give public credit.'] },
    ],
    ...overrides,
  };
}

describe('escapeHtml and safeHttpUrl', () => {
  it('escapes the five markup characters', () => {
    expect(escapeHtml('<a href="x">\'&\'</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('accepts only http(s) URLs', () => {
    expect(safeHttpUrl('https://a.example/p.png')).toBe('https://a.example/p.png');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl(' JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:image/png;base64,AAAA')).toBeNull();
    expect(safeHttpUrl('/images/x.svg')).toBeNull();
    expect(safeHttpUrl('/images/x.svg', { allowRootRelative: true })).toBe('/images/x.svg');
    expect(safeHttpUrl('//evil.example/x.svg', { allowRootRelative: true })).toBeNull();
    expect(safeHttpUrl('/\t/evil.example/x.svg', { allowRootRelative: true })).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });
});

describe('renderProfilePage', () => {
  it('is a complete HTML5 document with the person, types, bars, map and every section', () => {
    const html = renderProfilePage(model());
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Maya Okafor · Rapport profile</title>');
    expect(html).toContain('<h1>Maya Okafor</h1>');
    expect(html).toContain('Head of Sales · Northwind');
    expect(html).toContain('Verified by assessment');
    expect(html).toContain('<p class="archetype">Catalyst</p>');
    expect(html).toContain('<strong>ENFP</strong>');
    expect(html).toContain('<strong>7</strong>');
    expect(html).toContain('style="width:72%');
    expect(html).toContain('style="width:43%');
    expect(html).toContain('src="https://rapport.example.com/images/disc-map/0.423_0.380.svg"');
    expect(html).toContain('src="https://images.example.com/maya.jpg"');
    for (const q of ['Enthusiastic', 'Persuasive', 'Spontaneous']) expect(html).toContain(`<li>${q}</li>`);
    for (const title of ['Communication', 'Meetings', 'Do']) expect(html).toContain(`<h2>${title}</h2>`);
    expect(html).toContain('<li>Open with a story before the numbers.</li>');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes names, titles, qualities and phrases', () => {
    const html = renderProfilePage(
      model({
        firstName: '<script>alert(1)</script>',
        lastName: 'O\'Brien "the <b>boss</b>"',
        companyName: '<img src=x onerror=alert(1)>',
        qualities: ['<i>bold</i>'],
        sections: [{ title: '<h1>x</h1>', phrases: ['Say "hi" & <wave>'] }],
      }),
    );
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('O&#39;Brien &quot;the &lt;b&gt;boss&lt;/b&gt;&quot;');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('<li>&lt;i&gt;bold&lt;/i&gt;</li>');
    expect(html).toContain('<h2>&lt;h1&gt;x&lt;/h1&gt;</h2>');
    expect(html).toContain('Say &quot;hi&quot; &amp; &lt;wave&gt;');
  });

  it('drops a javascript: photo and shows initials instead', () => {
    const html = renderProfilePage(model({ photoUrl: 'javascript:alert(1)' }));
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<div class="avatar initials" aria-hidden="true">MO</div>');
    expect(renderProfilePage(model({ photoUrl: null }))).toContain('>MO</div>');
  });

  it('leaves out a non-http map URL and marks predicted profiles', () => {
    const html = renderProfilePage(model({ discMapUrl: 'javascript:alert(1)', verified: false }));
    expect(html).not.toContain('javascript:');
    expect(html).toContain('No map available.');
    expect(html).toContain('Predicted profile');
    expect(renderProfilePage(model({ discMapUrl: '/images/disc-map/0.000_0.000.svg' }))).toContain('src="/images/disc-map/0.000_0.000.svg"');
  });

  it('keeps bar widths within 0–100 for junk numbers', () => {
    const p = model().personalities;
    const html = renderProfilePage(model({ personalities: { ...p, discIntensity: Number.NaN, discPercentages: { d: 250, i: -3, s: 0, c: 0 } } }));
    expect(html).toContain('style="width:0%');
    expect(html).toContain('style="width:100%');
    expect(html).not.toMatch(/NaN|-3%|250%/);
  });
});

describe('the evidence behind a profile', () => {
  it('says how many words a prediction rests on, its confidence, and that a thin one is tentative', () => {
    const html = renderProfilePage(model({ verified: false, evidence: { source: 'prediction', wordCount: 1234, confidence: 12 } }));
    expect(html).toContain('Predicted from 1,234 words of text. Confidence 12 of 100.');
    expect(html).toContain('the advice follows the way the writing points, worded as what');
    expect(html).toContain('what Maya may tend to do');
    expect(html).toContain('Confidence says how sure we are');
    // The shown intensity is shrunk by the evidence; the page says so, and what follows the writing instead.
    expect(html).toContain('The intensity shown above is how far the writing places Maya from the average');
  });

  it('reads a longer text as likely tendencies, and a test as measured', () => {
    const moderate = renderProfilePage(model({ evidence: { source: 'prediction', wordCount: 600, confidence: 19 } }));
    expect(moderate).toContain('likely tendencies rather than certainties');
    expect(moderate).not.toContain('worded as what');
    const test = renderProfilePage(model({ evidence: { source: 'assessment', wordCount: 0, confidence: 100 } }));
    expect(test).toContain('From a personality test. Confidence 100 of 100.');
    expect(test).not.toContain('words of text');
    expect(test).not.toContain('The intensity shown above');
  });

  it('escapes the name and survives junk numbers; no evidence, no card', () => {
    const html = renderProfilePage(model({ firstName: '<i>x</i>', evidence: { source: 'prediction', wordCount: Number.NaN, confidence: Number.NaN } }));
    expect(html).toContain('&lt;i&gt;x&lt;/i&gt; may tend to do');
    expect(html).toContain('Predicted from 0 words of text. Confidence 0 of 100.');
    expect(renderProfilePage(model())).not.toContain('How sure is this profile?');
  });
});

describe('the DISC bars and what the test measured', () => {
  const assessment = { source: 'assessment', wordCount: 0, confidence: 90 } as const;

  it('says the bars are shares of the DISC styles, not trait scores', () => {
    const html = renderProfilePage(model());
    expect(html).toContain("How Maya's point on the DISC map divides among the four DISC styles (together 100 %): how they deal with people, not trait scores.");
  });

  it('shows the conscientiousness a test measured apart from the C share (a trial read "Conscientiousness 4%" beside "runs on checklists")', () => {
    const html = renderProfilePage(model({ evidence: assessment, measured: { conscientiousness: 0.75, openness: 0.375 } }));
    expect(html).toContain('<span>Conscientiousness</span><strong>2%</strong>');
    expect(html).toContain('<h2>Measured by the test</h2>');
    expect(html).toMatch(/Thoroughness <small>\(care, order, follow-through: the test&#39;s conscientiousness scale\)<\/small><\/span><strong>very high<\/strong>/);
    expect(html).toMatch(/Openness <small>[^<]*<\/small><\/span><strong>high<\/strong>/);
    const average = renderProfilePage(model({ evidence: assessment, measured: { conscientiousness: 0.05, openness: -0.2 } }));
    expect(average).toMatch(/<strong>average<\/strong>/);
    expect(average).toMatch(/<strong>slightly low<\/strong>/);
  });

  it('shows no measured block for a prediction, nor junk numbers', () => {
    const predicted = renderProfilePage(model({ verified: false, evidence: { source: 'prediction', wordCount: 900, confidence: 20 }, measured: { conscientiousness: 0.8, openness: 0 } }));
    expect(predicted).not.toContain('Measured by the test');
    const junk = renderProfilePage(model({ evidence: assessment, measured: { conscientiousness: Number.NaN, openness: Number.NaN } }));
    expect(junk).not.toContain('Measured by the test');
  });
});

describe('renderNotFoundPage', () => {
  it('is a small complete page', () => {
    const html = renderNotFoundPage();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('Profile not found');
  });
});
