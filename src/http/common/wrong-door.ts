import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenKind } from '../../access/tokens.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../shared/errors.ts';
import type { HostName } from './metrics.ts';

/*
 * Hints for callers who knocked at the wrong door, found in trials: Connect calls sent to the
 * enterprise port (and back), a token of another API, JSON sent as a form by `curl -d`.
 */

/** Where the other host is, said as an operator configured it. */
function whereIs(host: HostName, config: Pick<Config, 'port' | 'connectPort' | 'publicBaseUrl' | 'publicConnectUrl'>): string {
  if (host === 'connect') return `Connect (group C) is served on its own port, CONNECT_PORT (${config.connectPort} here)${config.publicConnectUrl ? `, at ${config.publicConnectUrl}` : ''}`;
  return `groups A and B are served on PORT (${config.port} here)${config.publicBaseUrl ? `, at ${config.publicBaseUrl}` : ''}, not on the Connect port`;
}

const CONNECT_PATHS = /^\/v1\/(profiles\/async$|profiles\/results\/|relationships\/|messaging\/|emails?\/)/;
const BASE_PATHS = /^\/v1\/(analysis(\/|$)|personality_assessments\/)|^\/(dashboard|signup|login|logout|t|h|r|p)(\/|$)/;

/** For a 404: the route lives on the other host. Null when it lives nowhere. */
export function otherHostHint(here: HostName, config: Parameters<typeof whereIs>[1]): (method: string, path: string) => string | null {
  return (method, path) => {
    if (here === 'base' && (CONNECT_PATHS.test(path) || (method === 'POST' && path === '/v1/profiles'))) return `${whereIs('connect', config)}: send this request there.`;
    if (here === 'connect' && (BASE_PATHS.test(path) || (method === 'GET' && path === '/v1/profiles'))) return `This is the Connect port; ${whereIs('base', config)}.`;
    return null;
  };
}

/** What each API takes, for a 401 that names the kind needed and the kind sent. */
const TAKES: Record<TokenKind, string> = {
  enterprise: 'the Enterprise API (group A), which takes an enterprise token as "Authorization: Bearer <token>"',
  assessment: 'the Assessment API (group B), which takes an assessment token as "?token=<token>"',
  connect: 'the Connect API (group C, on CONNECT_PORT), which takes a connect token as "X-Org-Token: <token>"',
};

export function wrongKindMessage(needed: TokenKind, sent: TokenKind): string {
  return `The API token is not valid for ${TAKES[needed]}; the token sent is ${sent === 'enterprise' || sent === 'assessment' ? 'an' : 'a'} ${sent} token, for ${TAKES[sent].split(', which')[0]}.`;
}

/** For a 401 with no token where the group looks for one: another group's credential came instead. */
export function missingTokenHint(kind: TokenKind, request: FastifyRequest, config: Parameters<typeof whereIs>[1]): string {
  if (kind !== 'connect' && typeof request.headers['x-org-token'] === 'string') return ` X-Org-Token is the Connect API's header, and ${whereIs('connect', config)}.`;
  if (kind === 'connect' && /^Bearer\s/i.test(request.headers.authorization ?? '')) return ` "Authorization: Bearer" is the Enterprise API's; ${whereIs('base', config)}.`;
  return '';
}

const FORM = /^application\/x-www-form-urlencoded\b/i;

/**
 * JSON sent as a form: `curl -d '{"text": …}'` without `-H 'Content-Type: application/json'`
 * labels it urlencoded, the form parser makes the whole JSON one field's name, and the answer
 * was "body field text is required". Such a body (a field name that opens a JSON object or
 * array) is refused with the header to add. A real form is left alone.
 */
export function refuseJsonSentAsForm(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    if (!FORM.test(request.headers['content-type'] ?? '') || typeof body !== 'object' || body === null) return done();
    if (!Object.keys(body).some((key) => /^\s*[{[]/.test(key))) return done();
    throw new AppError(
      'unsupported_media_type',
      'The body is JSON but came as a form (Content-Type: application/x-www-form-urlencoded, what curl -d sends by default): send it with the header Content-Type: application/json.',
    );
  });
}
