/**
 * C2 `recommendations`: the Connect profile's advice for one person. Everything is chosen by
 * the profile composer (compose-profile.ts), so improvements to its selection flow through;
 * this module only maps its sections onto Connect's blocks, adds the one-line summary
 * (phrases/summary.json, written for this field) and renders it all as HTML-safe text.
 *
 * Every string in a Connect response is HTML-safe: overviews carry <b>, and a client that
 * renders one field as HTML will render its neighbours the same way, so names are escaped
 * everywhere, not only where markup is allowed (docs/api-decisions.md).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { escapeHtml } from '../../shared/html.ts';
import { composeProfileContent, OVERVIEW_SOURCE, toInlineHtml } from '../compose-profile.ts';
import { OVERVIEW_SECTIONS, validatePhraseFile, type OverviewSection, type Phrase } from '../phrases.ts';
import { BLEND_INTENSITY, isBlendPhrase, isCentrePhrase, rankPhrases, type CirclePosition } from '../rank.ts';
import { viewParty, type Party } from '../party.ts';
import { personalize } from '../text.ts';
import { evidenceLevel, measuredStances, selectionIntensity, traitLevels, type Facets } from '../individual.ts';
import { pointConfidence } from '../../personality/views.ts';

export interface ConnectSection {
  overview: string;
  phrases: string[];
}

export interface ConnectRecommendations {
  overview: string;
  qualities: string[];
  emailing: ConnectSection;
  communication: ConnectSection;
  motivations: ConnectSection;
  behavior: ConnectSection;
  building_trust: ConnectSection;
  selling: ConnectSection;
  working_together: ConnectSection;
}

const SUMMARY_FILE = fileURLToPath(new URL('../phrases/summary.json', import.meta.url));
let summaries: readonly Phrase[] | undefined;

/** summary.json is not a profile section, so it is read here, with the library's own checks. */
export function loadSummaryPhrases(): readonly Phrase[] {
  if (summaries === undefined) {
    const { phrases, problems } = validatePhraseFile('summary', JSON.parse(readFileSync(SUMMARY_FILE, 'utf8')) as unknown);
    if (problems.length > 0) throw new Error(`summary.json is invalid:\n  ${problems.join('\n  ')}`);
    summaries = Object.freeze(phrases.map((p) => Object.freeze(p)));
  }
  return summaries;
}

/**
 * The summary sentence nearest the point. A blend gets one written for the centre, which says it
 * is a blend (the nearest: one naming the way they lean, as the profile's overview opens), else
 * a mild one; just outside the centre the mild ones, with their blend bonus, usually fit best.
 */
function summaryPhrase(at: CirclePosition): Phrase | null {
  // `at.facets`, when given, carries only what a test measured: a summary calling a measured-careful person spontaneous is left out.
  const ranked = rankPhrases(loadSummaryPhrases(), at);
  const best =
    at.intensity < BLEND_INTENSITY
      ? (ranked.find((r) => isCentrePhrase(r.phrase)) ?? ranked.find((r) => isBlendPhrase(r.phrase)) ?? ranked[0])
      : ranked[0];
  return best === undefined ? null : best.phrase;
}

export function composeConnectRecommendations(person: Party): ConnectRecommendations {
  const view = viewParty(person);
  // As group A's advice (src/profiles/describe.ts): how sure the estimate is (thin evidence
  // reads as a tentative blend, not as "decides fast") and the role read from the title. The
  // traits the point leaves out only where a personality test measured them: the text model
  // reads openness 0.6 or more and neuroticism -0.68 or less into every demo person's prose,
  // which made "New ideas are where Mei-Lin comes alive" sit beside "follows established ways".
  const confidence = pointConfidence(person.estimate.confidence);
  const measured = person.estimate.source === 'assessment';
  const traits = measured ? person.estimate.scores : undefined;
  const level = evidenceLevel(confidence);
  const measuredClaims = measuredStances(traitLevels(traits), measured);
  const facets: Facets | undefined = measuredClaims.length > 0 ? { level, traits: {}, role: null, measured: measuredClaims } : undefined;
  // Thin evidence: the composer's own summary, which opens by saying the picture is tentative.
  const summary = level === 'thin' ? null : summaryPhrase({ ...view.at, intensity: selectionIntensity(view.at.intensity, level), facets });
  // The summary is the page's headline: nothing below it may say otherwise ("a little more
  // ambitious ... rather than a hard push" above "pushing hard for results").
  const pageStances = summary?.stance ?? [];
  const content = composeProfileContent({ point: view.point, firstName: view.name, confidence, traits, traitsMeasured: measured, title: person.title ?? null, pageStances });
  const overview = toInlineHtml(summary === null ? content.summary : personalize(summary.text, view.name));
  const block = (key: OverviewSection): ConnectSection => ({
    overview: toInlineHtml(content.section_overviews[key]),
    phrases: content[OVERVIEW_SOURCE[key]].map((phrase) => escapeHtml(phrase)),
  });
  const blocks = Object.fromEntries(OVERVIEW_SECTIONS.map((key) => [key, block(key)])) as Record<OverviewSection, ConnectSection>;
  return { overview, qualities: content.qualities.map((q) => escapeHtml(q)), ...blocks };
}
