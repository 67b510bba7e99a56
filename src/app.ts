import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { assessmentApi } from './http/assessment/index.ts';
import { connectApi } from './http/connect/index.ts';
import { enterpriseApi } from './http/enterprise/index.ts';
import { installBodyParsers, NO_BODY } from './http/common/body-caps.ts';
import { validatorFactory } from './http/common/body-validation.ts';
import { runWhenReady, type ReadyTask } from './http/common/on-ready.ts';
import { noteSerializersBuiltBeforeListening, warmingSerializerFactory } from './http/common/serializer-warm-up.ts';
import { clientErrorHandler, MAX_HEADER_BYTES } from './http/common/client-errors.ts';
import { limitConnections, serverTimeoutOptions } from './http/common/connection-limits.ts';
import { frameworkErrors, installErrorHandling } from './http/common/errors.ts';
import { healthRoute } from './http/common/health.ts';
import { indexRoute } from './http/common/index-route.ts';
import { installInputTextGuard } from './http/common/input-text.ts';
import { installLoadShedding } from './http/common/load-shedding.ts';
import { installRequestMetrics, metricsRoute, type HostName } from './http/common/metrics.ts';
import { installOpenApi } from './http/common/openapi.ts';
import { addWebhookEventSchemas } from './http/common/webhooks/event-schemas.ts';
import { installRequestLog, lazyRequestLogger, requestIdFor } from './http/common/request-log.ts';
import { otherHostBase } from './http/common/links.ts';
import { installResponseHeaders } from './http/common/response-headers.ts';
import { otherHostHint, refuseJsonSentAsForm } from './http/common/wrong-door.ts';
import { discMapRoute } from './http/web/disc-map.ts';
import { assessmentPages } from './http/web/index.ts';
import { personDiscMapRoute } from './http/web/person-disc-map.ts';
import { profilePageRoute } from './http/web/profile-page.ts';
import type { AppContext } from './context.ts';
import { renderLandingPage } from './pages/landing-page.ts';

/** For an app that will listen: pay at `ready()` for the first response of every union-shaped route and of the health check (serializer-warm-up.ts). */
export interface BuildOptions {
  warmSerializers?: boolean;
  /**
   * Request validators and response serializers compile on each route's first use
   * (src/http/common/body-validation.ts, serializer-warm-up.ts); `at-start` compiles them all as
   * the app becomes ready, so a schema Ajv or fast-json-stringify refuses fails `ready()`
   * (test/http/validators-on-first-use.test.ts) rather than a route's first request.
   */
  compileSchemas?: 'on-first-use' | 'at-start';
}

/** A number of hops as the function Fastify compiles a number into (its types list no number). */
function trustProxyOption(setting: boolean | number | string[]) {
  return typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;
}

/** What both hosts share: logging, request ids, the error body, body parsing, health. */
async function createFastify(ctx: AppContext, host: HostName, options: BuildOptions) {
  // Typed as Fastify's logger interface so route plugins share one instance type.
  const logger: FastifyBaseLogger = ctx.logger;
  const timeouts = serverTimeoutOptions(ctx.config.http);
  const serializerWarmUps: ReadyTask[] = [];
  const validatorCompiles: ReadyTask[] = [];
  const serializerCompiles: ReadyTask[] = [];
  // Routes whose options ask for their serializers before listening (the health check's).
  const builtBeforeListening = new Set<string>();
  const app = Fastify({
    loggerInstance: logger,
    // Our own hook writes the one line per request (src/http/common/request-log.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    // `request.log` is made when something logs through it, not for every request.
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdFor,
    // A route takes only the body it declares (src/http/common/body-caps.ts); others a small one.
    bodyLimit: NO_BODY.bytes,
    // RAPPORT_TRUST_PROXY: whose X-Forwarded-For/-Proto/-Host to believe (none by default).
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Connections stay open across requests; closing waits for in-flight ones only.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // No client may hold a connection, or the body of an upload, open for ever.
    ...timeouts,
    // Node's own refusal of a request without Host is a bare 400: response-headers.ts answers it.
    http: { ...timeouts.http, maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false },
    clientErrorHandler: clientErrorHandler(logger),
    frameworkErrors,
    schemaController: {
      compilersFactory: { buildValidator: validatorFactory(validatorCompiles), buildSerializer: warmingSerializerFactory(serializerWarmUps, serializerCompiles, builtBeforeListening) },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  noteSerializersBuiltBeforeListening(app, builtBeforeListening);
  const atReady: ReadyTask[][] = [];
  if (options.warmSerializers === true) atReady.push(serializerWarmUps);
  if (options.compileSchemas === 'at-start') atReady.push(validatorCompiles, serializerCompiles);
  runWhenReady(app, atReady);
  limitConnections(app.server, ctx.config.http);
  app.decorateRequest('apiToken', null);
  const routes = installErrorHandling(app, otherHostHint(host, ctx.config));
  refuseJsonSentAsForm(app);
  installRequestLog(app);
  installResponseHeaders(app);
  installRequestMetrics(app, ctx.metrics, host, routes);
  installLoadShedding(app, ctx.overload, ctx.metrics);
  installBodyParsers(app);
  installInputTextGuard(app);
  return app;
}

function withPath(base: string | null, path: string): string | null {
  return base === null ? null : `${base}${path}`;
}

/** {base_url}: groups A (Enterprise) and B (Assessment), the web pages and images. */
export async function buildBaseApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await createFastify(ctx, 'base', options);
  await installOpenApi(app, {
    title: 'Rapport: Enterprise and Assessment API',
    description:
      'Group A (Authorization: Bearer): profile lookup and personality analysis from text or PDF. ' +
      'Group B (?token=): look up people who took the personality test through your links, and usage. ' +
      'Pages: the test (/t/…, /h/…), sign-up, log-in and the dashboard.',
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      queryToken: { type: 'apiKey', in: 'query', name: 'token' },
    },
  });
  addWebhookEventSchemas(app, ['enterprise', 'user']);
  await app.register(healthRoute, { ctx });
  const landing = (request: FastifyRequest) =>
    renderLandingPage({ host: 'base', signupOpen: ctx.config.signup, connectDocsUrl: withPath(otherHostBase(request, ctx.config.publicConnectUrl, ctx.config.connectPort), '/docs'), baseUrl: null });
  await app.register(indexRoute('Enterprise (group A) and Assessment (group B) API', landing));
  await app.register(enterpriseApi, { ctx });
  await app.register(assessmentApi, { ctx });
  await app.register(discMapRoute, { ctx });
  await app.register(personDiscMapRoute, { ctx });
  await app.register(profilePageRoute, { ctx });
  await app.register(assessmentPages, { ctx });
  // Behind its token, the metrics are also on {base_url} for set-ups with one port open.
  if (ctx.config.metricsToken !== null) await app.register(metricsRoute(ctx.metrics, ctx.config.metricsToken));
  return app;
}

/** {connect_url}: group C (Connect). */
export async function buildConnectApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await createFastify(ctx, 'connect', options);
  await installOpenApi(app, {
    title: 'Rapport: Connect API',
    description:
      'Group C (X-Org-Token header): profile search by name, email, company, location and text sample (sync, or async with ' +
      'polling), advice on the relationship between two searched profiles, recommendations on a message draft, and sample ' +
      'emails. Request ids are those of completed searches of the same organization; anything else is a 404.',
    securitySchemes: { orgToken: { type: 'apiKey', in: 'header', name: 'X-Org-Token' } },
  });
  addWebhookEventSchemas(app, ['connect']);
  await app.register(healthRoute, { ctx });
  const landing = (request: FastifyRequest) =>
    renderLandingPage({ host: 'connect', signupOpen: ctx.config.signup, connectDocsUrl: null, baseUrl: otherHostBase(request, ctx.config.publicBaseUrl, ctx.config.port) });
  await app.register(indexRoute('Connect API (group C)', landing));
  await app.register(connectApi, { ctx });
  // Connect answers link DISC images too; serving them here keeps those links on the same host.
  await app.register(discMapRoute, { ctx });
  return app;
}
