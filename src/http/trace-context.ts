/**
 * W3C Trace Context (§3.2): the caller's trace id goes into every log line of the request. No
 * spans of our own: an OpenTelemetry collector for one id in the logs is not worth running.
 */
export interface TraceParent {
  traceId: string;
  parentId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The trace context of a `traceparent` header, or null when it is absent or not valid (§3.2.2). */
export function parseTraceParent(header: string | string[] | undefined): TraceParent | null {
  if (typeof header !== 'string') return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, parentId, flags, rest] = match;
  // Version ff is invalid; version 00 has exactly four fields; all-zero ids are invalid.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return null;
  return { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1 };
}
