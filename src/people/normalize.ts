/**
 * Identifier normalisation: every spelling of one email address or one professional-network
 * profile URL must reduce to the same key, or a lookup misses a person we know.
 */

const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_LENGTH = 64;
const LOCAL_PART = /^[^\s@"(),:;<>[\\\]]+$/u;
const DOMAIN = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+[\p{L}]{2,63}$/u;

/** What a caller hears when the email they gave cannot be anyone's (the same words everywhere). */
export const NOT_AN_EMAIL = 'The email given is not a valid email address (like name@example.com).';
/** The same, for an email in a query string, where an unencoded + arrives as a space. */
export const NOT_AN_EMAIL_IN_QUERY = 'The email given is not a valid email address (like name@example.com; URL-encode it, + as %2B).';

/**
 * Trimmed and lower-cased, or null when it is not a plausible address. Lower-casing the local
 * part is what every mail provider in practice does. Dots and `+tags` are kept: their meaning
 * is provider-specific, and merging two real people would be worse than missing one match.
 */
export function normalizeEmail(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || email.indexOf('@') !== at) return null;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return null;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  return DOMAIN.test(domain) ? email : null;
}

/** linkedin.com itself, or one short subdomain: www, m, mobile, and country editions (uk, de, …). */
const HOST = /^(?:[a-z]{1,10}\.)?linkedin\.com$/;
/** Vanity names: letters of any script, digits, hyphens and a few marks older profiles carry. */
const SLUG = /^[\p{L}\p{M}\p{N}_.~-]{1,100}$/u;
const SLUG_HAS_WORD = /[\p{L}\p{N}]/u;
/** Legacy public profiles: /pub/<name>/<a>/<b>/<c>, the last three short hex-like parts. */
const PUB_ID_PART = /^[0-9a-z]{1,3}$/;
const MAX_URL_LENGTH = 2048;

function parseUrl(raw: string): URL | null {
  const trimmed = raw.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Decoded, NFC, lower-cased path segments; null when one is not valid percent-encoding. */
function segments(pathname: string): string[] | null {
  const parts: string[] = [];
  for (const part of pathname.split('/')) {
    if (part === '') continue;
    try {
      parts.push(decodeURIComponent(part).normalize('NFC').toLowerCase());
    } catch {
      return null;
    }
  }
  return parts;
}

function validSlug(slug: string | undefined): slug is string {
  return slug !== undefined && SLUG.test(slug) && SLUG_HAS_WORD.test(slug);
}

/**
 * The key one profile is stored and looked up under: `in/<slug>` for vanity profiles
 * (`https://www.linkedin.com/in/Jane-Doe/?trk=x` → `in/jane-doe`) and
 * `pub/<name>/<a>/<b>/<c>` for legacy public profiles. Scheme, subdomain (www, m, country
 * editions), trailing slash, query, fragment, case and percent-encoding do not matter; the
 * slug keeps its letters decoded (`in/jürgen-müller`). Anything else — another site, a company
 * page, a search, a numeric `profile/view?id=` link — gives null: there is no stable key for it.
 */
export function linkedinKey(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const url = parseUrl(raw);
  if (!url || !HOST.test(url.hostname)) return null;
  const parts = segments(url.pathname);
  if (!parts) return null;
  // The lightweight mobile site prefixes profile paths with /mwlite.
  if (parts[0] === 'mwlite') parts.shift();
  const [kind, slug, ...rest] = parts;
  if (kind === 'in') return validSlug(slug) ? `in/${slug}` : null;
  if (kind === 'pub' && slug !== 'dir' && validSlug(slug)) {
    const id = rest.slice(0, 3);
    if (id.length === 3 && id.every((p) => PUB_ID_PART.test(p))) return `pub/${slug}/${id.join('/')}`;
  }
  return null;
}

/** What RFC 3986 allows in a path, query and fragment as is; everything else is %-encoded. */
const URI_SAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]/gu;

/**
 * A web URL as every response can return it (the API's `format: uri`, an `<img src>`), or null
 * when the value cannot be made one (another scheme, no host, unparsable). Non-ASCII and
 * unsafe characters (`é " < > { } | ^ \` and a backtick, spaces) are percent-encoded,
 * a host in another script becomes its ASCII (punycode) form, and credentials are dropped.
 * A value already in that form comes back unchanged, so applying it twice changes nothing.
 */
export function normalizeWebUrl(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  if (!/^https?:\/\//i.test(trimmed) || trimmed.length > MAX_URL_LENGTH) return null;
  // A backslash would otherwise be read as a path separator (WHATWG rules for http).
  const slashed = trimmed.replace(/\\/g, '%5C');
  let url: URL;
  try {
    url = new URL(slashed);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  // A fragment ends at the first #: another one inside it is not a URI's, so it is encoded.
  const hash = url.hash === '' ? '' : `#${url.hash.slice(1).replace(/#/g, '%23')}`;
  const rest = `${url.pathname}${url.search}${hash}`
    // A % that starts no escape is a literal percent sign.
    .replace(/%(?![0-9A-Fa-f]{2})/g, '%25')
    .replace(URI_SAFE, (c) => encodeURIComponent(c));
  const normalized = `${url.protocol}//${url.host}${rest}`;
  return normalized.length > MAX_URL_LENGTH ? null : normalized;
}

/** A profile URL as given (the scheme may be missing: `linkedin.com/in/x`), normalised as above. */
export function normalizeProfileUrl(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null;
  const trimmed = raw.trim();
  return normalizeWebUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed.replace(/^\/\//, '')}`);
}
