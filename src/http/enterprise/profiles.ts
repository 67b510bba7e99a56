import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { lookupPerson } from '../../people/lookup-person.ts';
import { personDiscMapUrl, profilePageUrl, publicBase } from '../common/links.ts';
import { CONFIDENCE_DESCRIPTION, noPersonality, NoPersonality, PhraseBlocks, phraseBlocks, StringList } from '../common/personality-schemas.ts';
import { errorResponses, TOKEN_ERRORS } from '../common/error-responses.ts';

/** A1, field for field as the contract lists it, plus `confidence`. */
const ProfileA1 = Type.Object({
  data: Type.Object({
    first_name: Type.String(),
    last_name: Type.String(),
    photo_url: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
    url: Type.String({ format: 'uri', description: 'The profile page' }),
    verified: Type.Boolean({ description: "True when the personality comes from Rapport's own test" }),
    qualities: StringList,
    personalities: Type.Object({
      archetype: Type.String(),
      disc_type: Type.String(),
      disc_intensity: Type.Integer({ minimum: 0, maximum: 100 }),
      disc_percentages: Type.Object({ d: Type.Integer(), i: Type.Integer(), s: Type.Integer(), c: Type.Integer() }),
      enneagram_type: Type.String(),
      myers_briggs_type: Type.String(),
    }),
    images: Type.Object({ disc_map: Type.String({ format: 'uri' }) }),
    content: Type.Object({
      ...PhraseBlocks,
      recommendations: Type.Object({ do: StringList, dont: StringList }),
    }),
    hiring: Type.Array(Type.Object({ url: Type.String(), role: Type.String() })),
    confidence: Type.Integer({ description: CONFIDENCE_DESCRIPTION }),
  }),
});

const schema = {
  summary: 'Look a person up by email or professional-network URL in the stored dataset',
  operationId: 'getProfile',
  tags: ['Profiles'],
  security: [{ bearer: [] }],
  querystring: Type.Object({
    email: Type.Optional(Type.String({ maxLength: 320, description: 'The person\'s email, URL-encoded, in any capitalisation. Give this or linkedin_url (or both: the email is tried first)' })),
    linkedin_url: Type.Optional(Type.String({ maxLength: 2000, description: 'The person\'s LinkedIn profile URL (linkedin.com/in/… or /pub/…): scheme, www or country host, case, query and trailing slash do not matter. Anything else is 400, unless a usable email is given beside it' })),
  }),
  response: {
    200: Type.Union([ProfileA1, NoPersonality], { description: 'A1: the person\'s profile, or the no-personality answer (data null) for a person stored with too little text' }),
    ...errorResponses([...TOKEN_ERRORS, 'bad_request', 'not_found'], { not_found: 'not_found: nobody is stored under this email or URL' }),
  },
};

export const profilesRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/v1/profiles', { schema }, async (request) => {
    const person = await lookupPerson(ctx.people, { email: request.query.email, linkedinUrl: request.query.linkedin_url });
    if (!person.estimate) return noPersonality();
    const { view, content } = ctx.descriptions.describe(person.estimate, person.firstName, { title: person.title });
    const base = publicBase(request, ctx.config.publicBaseUrl);
    return {
      data: {
        first_name: person.firstName ?? '',
        last_name: person.lastName ?? '',
        photo_url: person.photoUrl,
        url: profilePageUrl(base, person.publicId),
        verified: person.verified,
        qualities: content.qualities,
        personalities: {
          archetype: view.archetype,
          disc_type: view.discType,
          disc_intensity: view.discIntensity,
          disc_percentages: view.discPercentages,
          enneagram_type: String(view.enneagramType),
          myers_briggs_type: view.myersBriggsType,
        },
        images: { disc_map: personDiscMapUrl(base, person.publicId) },
        content: {
          ...phraseBlocks(content),
          recommendations: { do: content.do, dont: content.dont },
        },
        hiring: [],
        confidence: view.confidence,
      },
    };
  });
};
