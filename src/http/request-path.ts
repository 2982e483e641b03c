/**
 * The path a request asked for, without its query. An absolute-form target (`GET http://host/x`,
 * RFC 9112 §3.2.2) is routed by its path, so its scheme and host are dropped here as well: a
 * message quotes, and a route compares, what the router matched.
 */
export function requestPath(url: string): string {
  const origin = /^https?:\/\/[^/?]*/i.exec(url);
  const target = origin ? url.slice(origin[0].length) : url;
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  return origin && path === '' ? '/' : path;
}
