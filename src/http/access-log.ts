import { KEY_PREFIX } from '../domain/api-keys.js';

/** What a masked value is logged as. */
export const REDACTED = '[redacted]';
/** DECISIONS §11: the longest URL an access line shows; a longer one is cut and marked with MORE. */
export const MAX_LOGGED_URL = 2048;
const MORE = '…';

/**
 * A query parameter named like a credential (`api_key`, `apiKey`, `x-api-key`, `access_token`, OXR's `app_id`, …,
 * also as `api_key[]` or `api_key;v`): its value is never logged.
 */
const KEY_NAME = /(?:key|token|secret|password|auth|authorization|bearer|app_?id)(?:\[\]|;.*)?$/i;
/** Whether a URL may hold anything to mask: most do not, and are logged as they are. */
const SUSPECT = /key|token|secret|password|auth|bearer|app_?id|%/i;

/**
 * Percent-escapes decoded byte by byte, again while any are left (`%255F` is `%5F`, then `_`):
 * never throws, and enough to see a name or the prefix behind them.
 */
function unescaped(text: string): string {
  let decoded = text;
  for (let previous = ''; decoded.includes('%') && decoded !== previous; ) {
    previous = decoded;
    decoded = decoded.replace(/%[0-9a-f]{2}/gi, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  }
  return decoded;
}

const holdsKey = (text: string): boolean => unescaped(text).includes(KEY_PREFIX);

function maskedParameter(part: string): string {
  const equals = part.indexOf('=');
  if (equals === -1) return holdsKey(part) ? REDACTED : part;
  const name = part.slice(0, equals);
  if (holdsKey(name)) return REDACTED;
  const value = part.slice(equals + 1);
  return value !== '' && (KEY_NAME.test(unescaped(name)) || holdsKey(value)) ? `${name}=${REDACTED}` : part;
}

/**
 * The URL as an access line shows it (DECISIONS §11): a key sent where it does not belong (a query
 * value, a parameter named like a key, a path segment) is masked, and the rest is cut at
 * MAX_LOGGED_URL characters. Masking comes first, so a cut never leaves part of a key behind.
 */
export function loggableUrl(url: string): string {
  let shown = url;
  if (SUSPECT.test(url) || url.includes(KEY_PREFIX)) {
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    shown = path
      .split('/')
      .map((segment) => (holdsKey(segment) ? REDACTED : segment))
      .join('/');
    if (question !== -1) shown += '?' + url.slice(question + 1).split('&').map(maskedParameter).join('&');
  }
  return shown.length > MAX_LOGGED_URL ? shown.slice(0, MAX_LOGGED_URL) + MORE : shown;
}
