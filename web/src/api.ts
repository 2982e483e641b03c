/** The API's answers the page reads (docs/api.md). Rates and amounts stay the strings they are. */
export interface Conversion {
  from: string;
  to: string;
  amount: string;
  result: string;
  rate: string;
  date: string;
}
export interface RateSet {
  base: string;
  date: string;
  rates: Record<string, string>;
}
export interface RateRange {
  base: string;
  start_date: string;
  end_date: string;
  rates: Record<string, Record<string, string>>;
}
export interface Currency {
  code: string;
  name: string;
  symbol: string;
}
/** One enabled source of GET /api/v1/sources, as far as the page reads it. */
export interface Source {
  id: string;
  name: string;
  /** ISO 3166 alpha-2, "EU" for the ECB, null for an international body (the IMF). */
  country: string | null;
  rate_type: string;
  cadence: string;
  first_day: string | null;
  last_day: string | null;
}
export interface Usage {
  limit: number;
  used: number;
  remaining: number;
  period_start: string;
  period_end: string;
}

/** The quota as the X-RateLimit-* headers of the last answer tell it. */
export interface QuotaHeaders {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** A refusal of the API, or no answer at all, said in words. */
export class ApiError extends Error {
  constructor(
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The words of an error body `{statusCode, message, error}`: message is a string, or a list on a 400. */
export function errorWords(status: number, statusText: string, body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  const words = Array.isArray(message) ? message.map(String).join('; ') : typeof message === 'string' ? message : '';
  if (words === '') return `The service answered ${status}${statusText ? ` ${statusText}` : ''}.`;
  if (status === 401) return `${words}. Check the key, or ask the operator for one (currency-rates keys create).`;
  return words.endsWith('.') ? words : `${words}.`;
}

/** GET on the API with the key as a bearer token; a non-2xx answer becomes an ApiError. */
export class ApiClient {
  constructor(
    private readonly key: () => string | undefined,
    private readonly onQuota: (quota: QuotaHeaders) => void,
  ) {}

  async get<T>(path: string, query: Record<string, string | undefined> = {}): Promise<T> {
    const key = this.key();
    if (key === undefined) throw new ApiError(undefined, 'Enter an API key first (above).');
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
    const url = `/api/v1/${path}${search.size > 0 ? `?${search}` : ''}`;
    let response: Response;
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });
    } catch {
      throw new ApiError(undefined, 'The service could not be reached. Check the connection and try again.');
    }
    this.readQuota(response.headers);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!response.ok) throw new ApiError(response.status, errorWords(response.status, response.statusText, body));
    return body as T;
  }

  private readQuota(headers: Headers): void {
    const limit = headers.get('x-ratelimit-limit');
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = headers.get('x-ratelimit-reset');
    if (limit === null || remaining === null || reset === null) return;
    this.onQuota({ limit: Number(limit), remaining: Number(remaining), resetSeconds: Number(reset) });
  }
}
