import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { loadQuestionnaire } from '../../assessment/questionnaire.ts';
import type { AppContext } from '../../context.ts';
import { assetRoutes } from './assets.ts';
import { authRoutes } from './auth.ts';
import { confirmRoutes } from './confirm.ts';
import { dashboardRoutes } from './dashboard.ts';
import { dashboardPeopleRoutes } from './dashboard-people.ts';
import { dashboardWebhookRoutes } from './dashboard-webhooks.ts';
import { htmlErrorHandler } from './forms.ts';
import { passwordResetRoutes } from './password-reset.ts';
import { resultPageRoutes } from './result-page.ts';
import { sharedResultRoutes } from './shared-result.ts';
import { testPageRoutes } from './test-page.ts';

/** Group B's pages: the test, its result (and its private link), sign-up, log-in, password reset, links sent by mail and the dashboard. Errors answer as pages. */
export const assessmentPages: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.setErrorHandler(htmlErrorHandler);
  const questionnaire = loadQuestionnaire();
  // What the result page says to its taker, checked at start-up with the rest of the content.
  const content = ctx.content.takerResult;
  await app.register(assetRoutes);
  await app.register(testPageRoutes, { ctx, questionnaire });
  await app.register(resultPageRoutes, { ctx, content });
  await app.register(sharedResultRoutes, { ctx, content });
  await app.register(authRoutes, { ctx });
  await app.register(confirmRoutes, { ctx });
  await app.register(dashboardRoutes, { ctx });
  await app.register(dashboardPeopleRoutes, { ctx });
  await app.register(passwordResetRoutes, { ctx });
  await app.register(dashboardWebhookRoutes, { ctx });
};
