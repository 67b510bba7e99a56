import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { personForPage } from '../../people/lookup-person.ts';
import { PROFILE_PAGE_CSP, renderNotFoundPage, renderProfilePage } from '../../pages/profile-page.ts';
import { htmlPage } from '../common/doc-responses.ts';
import { personDiscMapUrl, publicBase } from '../common/links.ts';

const SECTION_TITLES = [
  ['overview', 'Overview'],
  ['behavior', 'How they behave'],
  ['motivation', 'What motivates them'],
  ['drainer', 'What drains them'],
  ['communication', 'Communicating'],
  ['meeting', 'Meeting'],
  ['selling', 'Selling to them'],
  ['working_together', 'Working together'],
  ['do', 'Do'],
  ['dont', "Don't"],
  ['emailing', 'Emailing'],
  ['building_trust', 'Building trust'],
] as const;

const schema = {
  summary: "A person's profile page (HTML), the `url` of a profile",
  tags: ['Pages'],
  params: Type.Object({ publicId: Type.String({ maxLength: 100, description: "The person's public id, from the url field of A1 or C2" }) }),
  response: {
    200: htmlPage("The person's profile and advice on how to communicate with them"),
    404: htmlPage('A page saying there is no profile here: the person is not stored, or has no personality'),
  },
};

/**
 * Public pages reached by their unguessable id (the `url` field). They are marked noindex,
 * and anyone holding the link can read them, like a shared document link.
 */
export const profilePageRoute: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/p/:publicId', { schema }, async (request, reply) => {
    const person = await personForPage(ctx.people, request.params.publicId);
    reply.type('text/html; charset=utf-8').header('cache-control', 'private, max-age=300').header('content-security-policy', PROFILE_PAGE_CSP);
    if (!person?.estimate) return reply.status(404).send(renderNotFoundPage());
    const { view, content } = ctx.descriptions.describe(person.estimate, person.firstName, { title: person.title });
    return renderProfilePage({
      firstName: person.firstName ?? '',
      lastName: person.lastName ?? '',
      photoUrl: person.photoUrl,
      companyName: person.companyName,
      title: person.title,
      verified: person.verified,
      personalities: {
        archetype: view.archetype,
        discType: view.discType,
        discIntensity: view.discIntensity,
        discPercentages: view.discPercentages,
        myersBriggsType: view.myersBriggsType,
        enneagramType: view.enneagramType,
      },
      qualities: content.qualities,
      discMapUrl: personDiscMapUrl(publicBase(request, ctx.config.publicBaseUrl), person.publicId),
      sections: SECTION_TITLES.map(([key, title]) => ({ title, phrases: content[key] })),
      evidence: { source: person.estimate.source, wordCount: person.estimate.wordCount, confidence: view.confidence },
      ...(person.estimate.source === 'assessment'
        ? { measured: { conscientiousness: person.estimate.scores.conscientiousness, openness: person.estimate.scores.openness } }
        : {}),
    });
  });
};
