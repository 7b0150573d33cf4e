/** One answer of the real server, kept so that the ceiling can send the same bytes. */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** base64 of the body bytes. */
  body: string;
}

// Headers that describe the connection or the moment rather than the answer.
const SKIP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export interface RecordRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Sends each request once to the real server and records its answer (status, headers, body) by
 * path; the ceiling answers that path with it whatever the method.
 */
export async function recordResponses(
  base: string,
  requests: ReadonlyArray<string | RecordRequest>,
) {
  const recorded: Record<string, RecordedResponse> = {};
  for (const request of requests) {
    const {
      path,
      method = 'GET',
      headers,
      body: sent,
    } = typeof request === 'string' ? { path: request } : request;
    const res = await fetch(base + path, { method, headers, body: sent });
    const body = Buffer.from(await res.arrayBuffer());
    const kept: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!SKIP.has(name)) kept[name] = value;
    });
    recorded[path] = { status: res.status, headers: kept, body: body.toString('base64') };
  }
  return recorded;
}

/** Average body size of recorded answers, for the table. */
export const averageBytes = (recorded: Record<string, RecordedResponse>) => {
  const sizes = Object.values(recorded).map((r) => Buffer.byteLength(r.body, 'base64'));
  return sizes.length ? Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length) : 0;
};
