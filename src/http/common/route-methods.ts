import type { FastifyInstance } from 'fastify';

/** A registered path (`/v1/analysis/:id`) as a regular expression, and the methods routes give it. */
interface PathEntry {
  url: string;
  pattern: RegExp;
  methods: Set<string>;
}

/** The order methods are listed in, in `Allow` and in messages; others follow alphabetically. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function byMethodOrder(a: string, b: string): number {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * `:name` is the rest of one path segment and `*` the rest of the path, as Fastify's router
 * reads them; every other character stands for itself. Router syntax no route here uses (a
 * regular expression on a parameter, an optional parameter) is taken literally, so it matches
 * no request path: such a path gets the 404 it got before, never a 405 it does not deserve.
 */
function patternOf(url: string): RegExp {
  const source = url
    .split(/(:[A-Za-z0-9_]+|\*)/)
    .map((part) => {
      if (part === '*') return '.*';
      if (part.startsWith(':') && part.length > 1) return '[^/]+';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** A request URL's path, as the router splits it off: before any query string or fragment. */
export function requestPath(url: string): string {
  return url.split(/[?#]/, 1)[0] ?? url;
}

/**
 * The path as the router reads it: `/v1/profile%73` is /v1/profiles to Fastify, so it is here.
 * decodeURI leaves reserved characters encoded (`%2F` stays inside its segment). Fastify answers
 * a malformed escape 400 before any handler; one it lets through is matched as sent.
 */
function decodedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

export interface RouteMethods {
  /** The methods some route takes on this request path (as sent, no query string), in `Allow` order; empty for a path no route serves. */
  allowedFor(path: string): string[];
  /** The registered path this request path falls under (`/v1/analysis/:id`), as metrics label it; null for none. */
  templateFor(path: string): string | null;
}

/**
 * Records every route as it is registered (the onRoute hook, inherited by every plugin
 * registered afterwards), so a request whose path exists under another method can be told
 * apart from one whose path does not exist: Fastify's router answers both with its not-found
 * handler. Install before any route. HEAD routes Fastify adds beside each GET are recorded too.
 */
export function recordRouteMethods(app: FastifyInstance): RouteMethods {
  const entries = new Map<string, PathEntry>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entry = entries.get(route.url) ?? { url: route.url, pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of methods) entry.methods.add(method.toUpperCase());
    entries.set(route.url, entry);
  });
  // A path registered as it is stands alone: /v1/analysis/pdf takes POST, though GET
  // /v1/analysis/:id also matches it (that route answers the id "pdf" with this 405 too).
  const matching = (rawPath: string): PathEntry[] => {
    const path = decodedPath(rawPath);
    const exact = entries.get(path);
    return exact ? [exact] : [...entries.values()].filter((entry) => entry.pattern.test(path));
  };
  return {
    allowedFor(path) {
      const allowed = new Set(matching(path).flatMap((entry) => [...entry.methods]));
      return [...allowed].sort(byMethodOrder);
    },
    templateFor: (path) => matching(path)[0]?.url ?? null,
  };
}
