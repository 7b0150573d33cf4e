import autocannon, { type RawRequest } from 'autocannon';

/** The autocannon settings every measured run shares (server and ceiling alike). */
export interface LoadSettings {
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  /** Milliseconds, from every response's own time (autocannon's histogram rounds to whole ms). */
  p50: number;
  p99: number;
  max: number;
  /** Non-2xx answers plus connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  /** Seconds the run lasted, and every response time (ms), for combining runs. */
  seconds: number;
  latencies: Float64Array;
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Sees each answer: its connection's context (as `next` left it), status and time (ms). */
export type ResponseObserver = (
  context: Record<string, unknown>,
  status: number,
  responseTime: number,
) => void;

/**
 * One autocannon run against `base`. Each connection walks through `next(i, context)` to build its
 * requests; `context` is per connection (autocannon's), so a connection can keep its own author.
 * With one request in flight per connection (no pipelining), the context `observe` gets is the one
 * `next` set up the answered request with.
 */
export function runLoad(
  base: string,
  settings: LoadSettings,
  next: (sequence: number, context: Record<string, unknown>) => RawRequest,
  observe?: ResponseObserver,
): Promise<LoadResult> {
  let sequence = 0;
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: settings.connections,
        duration: settings.duration,
        pipelining: 1,
        timeout: 20,
        requests: [
          {
            setupRequest: (request, context) => {
              const { headers, ...rest } = next(sequence++, context);
              return Object.assign(request, { method: 'GET' }, rest, {
                headers: { ...request.headers, ...headers },
              });
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const statusCodes = Object.fromEntries(
          Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
        );
        resolve(
          summarize(
            [Float64Array.from(latencies)],
            result.duration,
            result.non2xx + result.errors + result.timeouts,
            statusCodes,
          ),
        );
      },
    );
    instance.on(
      'response',
      (
        client: { requestIterator?: { context?: Record<string, unknown> } },
        status: number,
        _bytes: number,
        responseTime: number,
      ) => {
        latencies.push(responseTime);
        if (!observe) return;
        const context = client.requestIterator?.context;
        if (!context) throw new Error("autocannon's client no longer exposes its context");
        observe(context, status, responseTime);
      },
    );
  });
}

function summarize(
  parts: Float64Array[],
  seconds: number,
  errors: number,
  statusCodes: Record<string, number>,
): LoadResult {
  const latencies = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    latencies.set(part, offset);
    offset += part.length;
  }
  const sorted = latencies.slice().sort();
  const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
  return {
    requests,
    rps: Math.round(requests / seconds),
    p50: round2(percentile(sorted, 50)),
    p99: round2(percentile(sorted, 99)),
    max: round2(sorted.length ? sorted[sorted.length - 1]! : 0),
    errors,
    statusCodes,
    seconds,
    latencies,
  };
}

/** Several runs as one: requests over total time, percentiles over every response. */
export function combine(results: readonly LoadResult[]): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const r of results)
    for (const [code, n] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return summarize(
    results.map((r) => r.latencies),
    results.reduce((t, r) => t + r.seconds, 0),
    results.reduce((t, r) => t + r.errors, 0),
    statusCodes,
  );
}

/**
 * The server and the ceiling, measured in alternating slices (server, ceiling, server, ...) of
 * duration / slices seconds each, so that a change in the machine's load (other work on a shared
 * box) weighs on both alike. The server is first warmed up with the same requests for
 * `warmupSeconds`, unmeasured, so that the first slice does not measure the JIT.
 */
export async function interleaved(
  bases: { server: string; ceiling: string },
  settings: LoadSettings & { slices: number; warmupSeconds: number },
  next: (sequence: number, context: Record<string, unknown>) => RawRequest,
): Promise<{ measured: LoadResult; raw: LoadResult }> {
  if (settings.warmupSeconds > 0)
    await runLoad(
      bases.server,
      { connections: settings.connections, duration: settings.warmupSeconds },
      next,
    );
  const slice = {
    connections: settings.connections,
    duration: Math.max(1, Math.round(settings.duration / settings.slices)),
  };
  const measured: LoadResult[] = [];
  const raw: LoadResult[] = [];
  for (let i = 0; i < settings.slices; i++) {
    measured.push(await runLoad(bases.server, slice, next));
    raw.push(await runLoad(bases.ceiling, slice, next));
  }
  return { measured: combine(measured), raw: combine(raw) };
}

/** Runs the same paths, round-robin, as plain GETs. */
export function getPaths(
  base: string,
  settings: LoadSettings,
  paths: readonly string[],
  headers?: Record<string, string>,
) {
  return runLoad(base, settings, (i) => ({
    path: paths[i % paths.length]!,
    ...(headers && { headers }),
  }));
}
