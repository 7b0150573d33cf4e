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
}

export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * One autocannon run against `base`. Each connection walks through `next(i, context)` to build its
 * requests; `context` is per connection (autocannon's), so a connection can keep its own author.
 */
export function runLoad(
  base: string,
  settings: LoadSettings,
  next: (sequence: number, context: Record<string, unknown>) => RawRequest,
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
              return Object.assign(request, { method: 'GET' }, rest, { headers: { ...request.headers, ...headers } });
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const sorted = Float64Array.from(latencies).sort();
        const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
        const requests = Object.values(statusCodes).reduce((a, b) => a + b, 0);
        resolve({
          requests,
          rps: Math.round(requests / result.duration),
          p50: round2(percentile(sorted, 50)),
          p99: round2(percentile(sorted, 99)),
          max: round2(sorted.length ? sorted[sorted.length - 1]! : 0),
          errors: result.non2xx + result.errors + result.timeouts,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
    });
  });
}

/** Runs the same paths, round-robin, as plain GETs. */
export function getPaths(base: string, settings: LoadSettings, paths: readonly string[], headers?: Record<string, string>) {
  return runLoad(base, settings, (i) => ({ path: paths[i % paths.length]!, ...(headers && { headers }) }));
}
