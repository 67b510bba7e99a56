import { describe, expect, it } from 'vitest';
import { composeConnectRecommendations } from '../../../src/content/connect/recommendations.ts';
import { selectionPoint } from '../../../src/content/candidates.ts';
import { rankCandidates } from '../../../src/content/ranking.ts';
import { readingFrom } from '../../../src/content/reading.ts';
import type { Party } from '../../../src/content/party.ts';
import { AXIS, partyAt, tagsIn, TYPE_ANGLES, withConfidence } from './helpers.ts';
import { shipped } from '../../helpers/content.ts';

/** Every block of C2's recommendations that has an overview (the contract's building_trust and working_together). */
const BLOCKS = ['emailing', 'communication', 'motivations', 'behavior', 'buildingTrust', 'selling', 'workingTogether'] as const;

describe('summary.json (the C2 overview)', () => {
  it('is valid, distinct, covers every sector and has blend summaries', () => {
    const phrases = shipped.summaries;
    expect(new Set(phrases.map((p) => p.text)).size).toBe(phrases.length);
    for (const angle of TYPE_ANGLES) {
      expect(rankCandidates(phrases, selectionPoint(readingFrom({ angle, strength: 60 }))).filter((r) => r.fit >= 0.5).length, String(angle)).toBeGreaterThanOrEqual(2);
    }
    expect(phrases.filter((p) => p.maxIntensity !== undefined && p.maxIntensity <= 35).length).toBeGreaterThanOrEqual(2);
  });
});

describe('composeConnectRecommendations', () => {
  it.each(TYPE_ANGLES)('gives every block an overview and phrases at %s°', (angle) => {
    const r = composeConnectRecommendations(partyAt('Maya', angle), shipped);
    expect(r.overview).toMatch(/Maya/);
    expect(r.qualities.length).toBeGreaterThanOrEqual(4);
    for (const q of r.qualities) expect(q).toMatch(/^\S+$/);
    for (const key of BLOCKS) {
      expect(r[key].overview.length, key).toBeGreaterThan(20);
      expect(r[key].phrases.length, key).toBeGreaterThanOrEqual(3);
      for (const p of r[key].phrases) expect(p).not.toMatch(/[{}*<]/);
    }
    // Markup is limited to <b> in overviews.
    for (const html of [r.overview, ...BLOCKS.map((k) => r[k].overview)]) {
      for (const tag of tagsIn(html)) expect(tag).toMatch(/^<\/?b>$/);
    }
  });

  it('writes different advice for D, I, S and C', () => {
    const texts = (['D', 'I', 'S', 'C'] as const).map((s) => JSON.stringify(composeConnectRecommendations(partyAt('Maya', AXIS[s]), shipped)));
    expect(new Set(texts).size).toBe(4);
    const d = composeConnectRecommendations(partyAt('Maya', AXIS.D), shipped);
    const s = composeConnectRecommendations(partyAt('Maya', AXIS.S), shipped);
    expect(d.emailing.phrases).not.toEqual(s.emailing.phrases);
    expect(d.overview).not.toEqual(s.overview);
  });

  it('escapes the name everywhere', () => {
    const r = composeConnectRecommendations(partyAt('<img src=x onerror=alert(1)>', AXIS.I), shipped);
    const all = JSON.stringify(r);
    expect(all).not.toContain('<img');
    expect(all).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('falls back to a neutral phrase without a name', () => {
    const r = composeConnectRecommendations(partyAt(null, AXIS.C), shipped);
    expect(r.overview).toMatch(/^(This person|[A-Z])/);
    expect(JSON.stringify(r)).not.toMatch(/\{first\}|null|undefined/);
  });

  it('leads a blend with a blend summary', () => {
    const r = composeConnectRecommendations(partyAt('Maya', AXIS.D, 10), shipped);
    const blendTexts = shipped.summaries
      .filter((p) => p.maxIntensity !== undefined)
      .map((p) => p.text.replace('{first}', 'Maya').replace(/\*\*(.+?)\*\*/g, '<b>$1</b>'));
    expect(blendTexts).toContain(r.overview);
  });

  it('gives neighbouring blends different overviews, each saying the style is balanced (one "versatile all-rounder" for every blend read as machine-made)', () => {
    const overviews = TYPE_ANGLES.map((angle) => composeConnectRecommendations(partyAt(null, angle, 20), shipped).overview);
    expect(new Set(overviews).size).toBe(TYPE_ANGLES.length);
    for (const overview of overviews) expect(overview).toMatch(/balanced|evenly/);
    // Just outside the centre a mild summary, not the type's full-strength one.
    expect(composeConnectRecommendations(partyAt(null, 22.5, 33), shipped).overview).toContain('a little warmer than average');
  });

  it('is deterministic', () => {
    expect(composeConnectRecommendations(partyAt('Maya', 100), shipped)).toEqual(composeConnectRecommendations(partyAt('Maya', 100), shipped));
  });
});

describe('composeConnectRecommendations follows the evidence and the role, as group A does', () => {
  it('opens a profile resting on a few words of text by saying it is tentative, and claims nothing emphatic', () => {
    const thin = composeConnectRecommendations(withConfidence(partyAt('Robert', AXIS.D, 80), 0.08), shipped);
    expect(thin.overview).toMatch(/tentative/);
    const sure = composeConnectRecommendations(partyAt('Robert', AXIS.D, 80), shipped);
    expect(sure.overview).not.toMatch(/tentative/);
    // The same direction's advice: thin evidence changes how firmly it is said, not what it is.
    expect(thin.qualities).toEqual(sure.qualities);
    expect(thin.overview).not.toMatch(/strongly marked|unmistakable|balanced/);
  });

  it('uses the role read from the title', () => {
    const plain = composeConnectRecommendations(partyAt('Maya', AXIS.C), shipped);
    const data = composeConnectRecommendations({ ...partyAt('Maya', AXIS.C), title: 'Senior Data Analyst' }, shipped);
    expect(JSON.stringify(data)).not.toBe(JSON.stringify(plain));
  });

  it('uses the other traits only where they are known as well as a personality test knows them', () => {
    // A text reading of this model gives openness a confidence of about 0.25: not enough to say
    // anything of it (it reads openness into nearly every writer's prose). A test's 0.9 is.
    const open = (source: 'prediction' | 'assessment', confidence: number): Party => {
      const base = partyAt('Maya', AXIS.S);
      const estimate = base.estimate;
      return { ...base, estimate: { ...estimate, source, scores: { ...estimate.scores, openness: 0.9 }, confidence: { ...estimate.confidence, openness: confidence } } };
    };
    expect(composeConnectRecommendations(open('prediction', 0.25), shipped)).toEqual(composeConnectRecommendations(partyAt('Maya', AXIS.S), shipped));
    expect(composeConnectRecommendations(open('assessment', 0.9), shipped)).not.toEqual(composeConnectRecommendations(partyAt('Maya', AXIS.S), shipped));
  });
});
