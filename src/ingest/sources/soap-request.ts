import type { SourceRequest } from './source-adapter.js';

/**
 * A SOAP 1.1 call POSTed to `url`: `operation` (the operation's element, in its namespace) as the
 * envelope's body, with the SOAPAction header where the service dispatches on it.
 */
export function soapRequest(url: string, operation: string, action?: string, label?: string): SourceRequest {
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'text/xml; charset=utf-8', ...(action === undefined ? {} : { soapaction: `"${action}"` }) },
    body:
      '<?xml version="1.0" encoding="utf-8"?>' +
      `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>${operation}</soap:Body></soap:Envelope>`,
    ...(label === undefined ? {} : { label }),
  };
}
