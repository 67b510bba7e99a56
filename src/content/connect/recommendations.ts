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
import { escapeHtml } from '../../shared/html.ts';
import { selectionPoint } from '../candidates.ts';
import { composeProfileContent, OVERVIEW_SOURCE, toInlineHtml } from '../compose-profile.ts';
import type { OverviewSection, Phrase } from '../phrases.ts';
import type { Content } from '../load-content.ts';
import { pickOne } from '../picking.ts';
import { rankCandidates, seedOf, varyLeaders } from '../ranking.ts';
import { viewParty, type Party } from '../party.ts';
import type { Reading } from '../reading.ts';
import { personalize } from '../text.ts';
import { wordStatements } from '../wording.ts';

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
  buildingTrust: ConnectSection;
  selling: ConnectSection;
  workingTogether: ConnectSection;
}

/**
 * The one-line overview, through the profile's own pipeline (the same candidates and ranking):
 * a central reading gets a centre summary naming its lean, others the best fitting of theirs.
 */
export function summaryPhrase(reading: Reading, summaries: readonly Phrase[]): Phrase | null {
  const at = selectionPoint(reading);
  // As in every section, the summaries that fit about as well as the best take turns by the reading.
  const ranked = varyLeaders(rankCandidates(summaries, at), seedOf(`summary|${reading.angle}|${at.strength}|${reading.role ?? '-'}`));
  return pickOne(ranked, [], reading.central ? 'central' : null);
}

export function composeConnectRecommendations(person: Party, content: RecommendationsContent): ConnectRecommendations {
  const view = viewParty(person);
  return recommendationsFor(view.reading, view.name, content);
}

/** What the recommendations are composed from. */
export type RecommendationsContent = Pick<Content, 'phrases' | 'summaries'>;

/** The recommendations for a reading and a first name already cleaned (text.ts cleanFirstName), or none. */
export function recommendationsFor(reading: Reading, name: string | null, content: RecommendationsContent): ConnectRecommendations {
  // Thin evidence: the profile's own opening, which says the picture is tentative, then its first sentence.
  const summary = reading.evidence === 'thin' ? null : summaryPhrase(reading, content.summaries);
  // The summary is the page's headline: nothing below it may take another side of what it says.
  const profile = composeProfileContent({ reading, firstName: name, pageStances: summary?.stance ?? [] }, content.phrases);
  const headline = summary === null ? profile.summary : personalize(wordStatements([summary], reading.evidence)[0] ?? '', name);
  const block = (key: OverviewSection): ConnectSection => ({
    overview: toInlineHtml(profile.sectionOverviews[key]),
    phrases: profile[OVERVIEW_SOURCE[key]].map((phrase) => escapeHtml(phrase)),
  });
  return {
    overview: toInlineHtml(headline),
    qualities: profile.qualities.map((q) => escapeHtml(q)),
    emailing: block('emailing'),
    communication: block('communication'),
    motivations: block('motivations'),
    behavior: block('behavior'),
    buildingTrust: block('building_trust'),
    selling: block('selling'),
    workingTogether: block('working_together'),
  };
}
