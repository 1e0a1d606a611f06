/**
 * Query parameters whose values must never reach a log or the analytics store: a Stripe checkout session id (it
 * names a payment and, with check-success, its buyer), referral codes (they identify the referring user), and any
 * credential a link may carry (tokens, codes, keys, e-mail addresses).
 */
const SENSITIVE_PARAMETER =
  /^(session_id|session_key|ref|ref_code|referral|referral_code|code|state|token|credential|key|api_key|secret|password|email)$|_(token|secret|key)$/i;

/** What a sensitive parameter's value becomes: the parameter stays, so a log still says it was there. */
export const REDACTED_VALUE = 'redacted';

export function isSensitiveParameter(name: string): boolean {
  return SENSITIVE_PARAMETER.test(name);
}

/** `a=1&session_id=cs_…` → `a=1&session_id=redacted`; unchanged (byte for byte) when nothing is sensitive. */
function redactQuery(query: string): string {
  const parameters = new URLSearchParams(query);
  const sensitive = [...new Set(parameters.keys())].filter(isSensitiveParameter);
  if (sensitive.length === 0) return query;
  for (const name of sensitive) parameters.set(name, REDACTED_VALUE);
  return parameters.toString();
}

/**
 * A URL or path with the values of its sensitive query parameters replaced, in the query and in a fragment written
 * as parameters (`#access_token=…`); anything else is kept as it is.
 */
export function redactSensitiveQuery(url: string): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt < 0 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  let redacted =
    queryAt < 0 ? beforeHash : `${beforeHash.slice(0, queryAt + 1)}${redactQuery(beforeHash.slice(queryAt + 1))}`;
  if (hashAt >= 0) {
    const hash = url.slice(hashAt + 1);
    redacted += `#${hash.includes('=') ? redactQuery(hash) : hash}`;
  }
  return redacted;
}

/** A parsed query object (Express's `req.query`) with the values of its sensitive parameters replaced. */
export function redactQueryObject<T>(query: T): T {
  if (!query || typeof query !== 'object') return query;
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [name, isSensitiveParameter(name) ? REDACTED_VALUE : value]),
  ) as T;
}

/** The fields of a request log line (pino's serialised request) that can carry a page's address. */
interface LoggedRequest {
  url?: string;
  query?: unknown;
  headers?: Record<string, unknown>;
}

/** The request log's request serialiser: the request's URL, parsed query and Referer with sensitive values replaced. */
export function redactRequestUrls<T extends LoggedRequest>(req: T): T {
  const referer = req.headers?.['referer'];
  return {
    ...req,
    url: typeof req.url === 'string' ? redactSensitiveQuery(req.url) : req.url,
    query: redactQueryObject(req.query),
    headers: typeof referer === 'string' ? { ...req.headers, referer: redactSensitiveQuery(referer) } : req.headers,
  };
}
