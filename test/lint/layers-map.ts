/**
 * Where each part of src/ stands, for the import-graph test and the lint layer tests: the
 * domain below, the edges above. eslint.config.js spells the same lists as lint rules;
 * test/lint/layers.test.ts plants a violation for every domain folder and edge, so the two
 * cannot drift apart.
 */

/**
 * The domain: what the service knows and does, whoever asks (a route, a page, the operator's
 * command, a job). It may import other domain parts, never an edge.
 */
export const DOMAIN: Record<string, string> = {
  access: 'API tokens, rate limits and metering: checked by the edge, kept by the domain',
  analysis: 'text and PDF analyses and their jobs',
  assessment: 'the personality test: items and scoring',
  confirmations: 'links mailed to confirm something, below the folders that mail them',
  connect: 'Connect searches and their jobs',
  content: 'the advice and texts shown with a profile',
  jobs: 'the job queue every background task runs on',
  mail: 'the mails the service sends',
  monitoring: 'metrics, overload and vital signs: read by the edge, fed by the domain',
  people: 'the people the service knows',
  personality: 'the models that turn texts and answers into a profile',
  takers: 'test takers and their results',
  users: 'registered users, their sessions and tokens',
  webhooks: 'webhook endpoints, events and deliveries',
  db: 'storage: the database client and migrations, below every verb',
  shared: 'errors, ids, logging: the floor every part stands on',
  'config.ts': 'the settings, read once at start-up and handed down',
  'config-schema.ts': 'every setting defined once: name, type, default, range, description',
};

/** The edges: they call the domain and are never called by it. */
export const EDGES: Record<string, string> = {
  http: 'the HTTP edge: routes, request hooks, the OpenAPI document',
  pages: 'HTML rendering: a presentation of the domain for the HTTP edge; the domain returns data, never HTML',
  operator: "the operator's verbs and admin socket",
  cli: "the operator's command line",
  'app.ts': 'the composition root: builds the Fastify app',
  'context.ts': 'the composition root: builds the context every part is handed',
  'server.ts': 'the composition root: starts and stops the service',
};

/** The part's layer key: a folder (src/http/web → http) or a top-level file. */
const layerKey = (part: string): string => part.split('/')[0] ?? part;
export const isDomain = (part: string): boolean => layerKey(part) in DOMAIN;
export const isEdge = (part: string): boolean => layerKey(part) in EDGES;
