import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SearchFields } from '../../connect/criteria.ts';
import type { FoundProfile } from '../../connect/requests.ts';
import { answerParts } from '../../connect/answer-parts.ts';
import type { ConnectRecommendations } from '../../content/connect/recommendations.ts';
import type { RecommendationsCache } from '../../content/connect/recommendations-cache.ts';
import { escapeHtml } from '../../shared/html.ts';
import { TEXT_TYPES } from '../../people/person.ts';
import { CONFIDENCE_DESCRIPTION } from '../common/personality-schemas.ts';
import { MAX_TEXT_CHARS } from '../../analysis/analyses.ts';
import { textBodyBytes } from '../common/body-caps.ts';
import { discMapUrl, publicBase } from '../common/links.ts';

/** C1's body: a text sample of up to 100,000 characters and a few short fields, one level deep. */
export const SEARCH_BODY = { bytes: textBodyBytes(MAX_TEXT_CHARS), fields: 16, depth: 2 };

/** C1: every field optional in the schema; the minimum criteria are checked by readSearch. */
export const SearchBody = Type.Object(
  {
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    company_name: Type.Optional(Type.String({ maxLength: 300, description: 'Company where the person works; narrows a name search' })),
    location: Type.Optional(Type.String({ maxLength: 300, description: "Ideally 'city, state'; narrows a name search" })),
    text_sample: Type.Optional(Type.String({ description: 'A paragraph or more written by the person (up to 100,000 characters)' })),
    // An enum rather than a union of literals: Ajv then names the allowed values ("must be one of
    // email, various, bio, resume") instead of "must be equal to constant".
    text_type: Type.Optional(Type.String({ enum: [...TEXT_TYPES], description: 'Required with text_sample' })),
  },
  {
    description:
      'C1. Minimum criteria: first_name and last_name; or email; or (sync) email with text_sample and text_type, ' +
      '(async) text_sample and text_type.',
  },
);

export const RequestIdParams = Type.Object({ request_id: Type.String({ maxLength: 200, description: 'The request_id a profile search answered with' }) });

export const Accepted = Type.Object(
  { request_id: Type.String() },
  { description: 'Not finished yet: poll GET /v1/profiles/results/{request_id}' },
);

const Section = Type.Object({ overview: Type.String({ description: 'May contain <b> tags' }), phrases: Type.Array(Type.String()) });

export const ProfileInfo = Type.Object({
  first_name: Type.Optional(Type.String({ description: 'HTML-escaped, like every Connect string' })),
  last_name: Type.Optional(Type.String({ description: 'HTML-escaped, like every Connect string' })),
  disc_scores: Type.Object({
    type: Type.String({ description: 'DISC type, e.g. Di' }),
    confidence: Type.Integer({ minimum: 0, maximum: 100, description: CONFIDENCE_DESCRIPTION }),
  }),
  disc_image: Type.String({ format: 'uri', description: 'DISC map (SVG; .png for a PNG)' }),
  has_assessment: Type.Boolean({ description: 'True when the person completed the personality test' }),
});

export const Recommendations = Type.Object({
  overview: Type.String({ description: 'Short summary; may contain inline HTML' }),
  qualities: Type.Array(Type.String()),
  emailing: Section,
  communication: Section,
  motivations: Section,
  behavior: Section,
  building_trust: Section,
  selling: Section,
  working_together: Section,
});

export const ProfileC2 = Type.Object(
  { info: ProfileInfo, recommendations: Recommendations, request_id: Type.String() },
  { description: 'C2: the person found, with advice on how to communicate with them' },
);

/** C1's fields in the domain's spelling, for readSearch. */
export function searchFields(body: Static<typeof SearchBody>): SearchFields {
  return {
    firstName: body.first_name,
    lastName: body.last_name,
    email: body.email,
    companyName: body.company_name,
    location: body.location,
    textSample: body.text_sample,
    textType: body.text_type,
  };
}

/** C2 for a found profile. Its names are escaped like every other Connect string: a client may render any of them as HTML. */
export function toC2(request: FastifyRequest, connectUrl: string | null, id: string, profile: FoundProfile, composer: RecommendationsCache) {
  const { view, recommendations } = answerParts(profile, composer);
  return {
    info: {
      ...(profile.firstName ? { first_name: escapeHtml(profile.firstName) } : {}),
      ...(profile.lastName ? { last_name: escapeHtml(profile.lastName) } : {}),
      disc_scores: { type: view.discType, confidence: view.confidence },
      disc_image: discMapUrl(publicBase(request, connectUrl), view.point),
      has_assessment: profile.hasAssessment,
    },
    recommendations: recommendationsJson(recommendations),
    request_id: id,
  };
}

/** C2's `recommendations`, in the contract's order and spelling. */
function recommendationsJson(r: ConnectRecommendations): Static<typeof Recommendations> {
  return {
    overview: r.overview,
    qualities: r.qualities,
    emailing: r.emailing,
    communication: r.communication,
    motivations: r.motivations,
    behavior: r.behavior,
    building_trust: r.buildingTrust,
    selling: r.selling,
    working_together: r.workingTogether,
  };
}

/** The composers' view of a found profile. */
export function partyOf(profile: FoundProfile) {
  return { firstName: profile.firstName, lastName: profile.lastName, estimate: profile.estimate, title: profile.title };
}
