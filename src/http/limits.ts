/**
 * What a client may send, and how slowly. Every refusal is a JSON answer in the spec's error
 * shape, never an empty body or a dropped connection: a client learns what it did wrong.
 */
export interface HttpLimits {
  /** Longest request target (path and query) served; a longer one gets 414. */
  maxUrlLength: number;
  /** Request line plus headers; more gets 431 (Node's parser counts the URL in it too). */
  maxHeaderBytes: number;
  /** The whole request must have arrived within this. */
  requestTimeoutMs: number;
  /** The headers must have arrived within this after the connection (or previous request) began. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; above common load-balancer idle timeouts (60 s). */
  keepAliveTimeoutMs: number;
  /** DECISIONS §14: a connection that takes no bytes of its answer for this long is closed. */
  stalledAnswerMs: number;
  /** How often Node looks for connections past the two timeouts above (its own default, 30 s, is too coarse). */
  timeoutCheckIntervalMs: number;
}

export const HTTP_LIMITS: HttpLimits = {
  maxUrlLength: 8 * 1024,
  maxHeaderBytes: 32 * 1024,
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 72_000,
  stalledAnswerMs: 30_000,
  timeoutCheckIntervalMs: 1_000,
};

/** What each refusal of the limits says. */
export const limitMessages = (limits: HttpLimits) => ({
  400: 'Malformed HTTP request',
  408: 'The request did not arrive in time',
  414: `The URL is longer than ${limits.maxUrlLength} characters`,
  431: `The request line and headers are larger than ${limits.maxHeaderBytes} bytes`,
  badUrl: 'Malformed URL: the path holds an invalid percent-encoding',
  fragment: 'Malformed URL: the request target holds a fragment (#)',
  noHost: 'An HTTP/1.1 request needs a Host header',
});

/**
 * The Fastify options that enforce `limits`; spread into the factory's options. The answers to
 * what Node's parser and the router refuse are in client-errors.ts and framework-errors.ts.
 */
export function limitOptions(limits: HttpLimits) {
  return {
    http: {
      maxHeaderSize: limits.maxHeaderBytes,
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      // Checked in the requestLimits hook instead, so the 400 has the spec's JSON body.
      requireHostHeader: false,
    },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // A path parameter is only ever as long as the URL allows; a longer one is a 414 like any URL.
    routerOptions: { maxParamLength: limits.maxUrlLength },
  };
}
