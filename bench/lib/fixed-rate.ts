import http from 'node:http';
import { percentile, type LoadResult } from './load.ts';

/** One request of a fixed-rate run. */
export interface FixedRateRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FixedRateSettings {
  /** Clients, each on a keep-alive connection of its own with one request in flight at most. */
  connections: number;
  /** Requests a second offered by all clients together. */
  rate: number;
  /** Seconds. */
  duration: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * An open-loop run: `rate` requests a second are scheduled evenly, each to client
 * `sequence % connections`, whatever the server's speed. A client whose previous request has not
 * been answered sends the next one when it is (as an editor's autosave waits for the last one),
 * and every latency counts from the request's scheduled time, not from when it went out, so a
 * slow server shows as latency instead of as fewer requests sent (no "coordinated omission").
 *
 * This measures what a closed loop cannot: latency at a given load. With N clients each sending
 * its next request the moment the last is answered, the mean latency is N / throughput whatever
 * the server does (Little's law), so a closed loop's p99 is a throughput figure in disguise.
 */
export async function runFixedRate(
  base: string,
  settings: FixedRateSettings,
  build: (sequence: number, client: number) => FixedRateRequest,
): Promise<LoadResult> {
  const url = new URL(base);
  const clients = Array.from({ length: settings.connections }, () => ({
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    /** When the client's previous request was answered (its next cannot go out before). */
    free: Promise.resolve(),
  }));
  const total = Math.round(settings.rate * settings.duration);
  const latencies = new Float64Array(total);
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const intervalMs = 1000 / settings.rate;

  const send = (request: FixedRateRequest, agent: http.Agent): Promise<number> =>
    new Promise((resolve) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: request.method,
          path: request.path,
          headers: {
            ...request.headers,
            ...(request.body !== undefined && {
              'content-length': Buffer.byteLength(request.body),
            }),
          },
          agent,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', () => resolve(0));
        },
      );
      req.on('error', () => resolve(0));
      req.setTimeout(20_000, () => req.destroy());
      req.end(request.body);
    });

  const inFlight: Array<Promise<void>> = [];
  for (let sequence = 0; sequence < total; sequence++) {
    const scheduled = started + sequence * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = clients[sequence % clients.length]!;
    const request = build(sequence, sequence % clients.length);
    const done = client.free.then(async () => {
      const status = await send(request, client.agent);
      latencies[sequence] = performance.now() - scheduled;
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status < 200 || status >= 300) errors++;
    });
    client.free = done;
    inFlight.push(done);
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  for (const client of clients) client.agent.destroy();

  const sorted = latencies.slice().sort();
  return {
    requests: total,
    rps: Math.round(total / seconds),
    p50: round2(percentile(sorted, 50)),
    p99: round2(percentile(sorted, 99)),
    max: round2(sorted[sorted.length - 1] ?? 0),
    errors,
    statusCodes,
    seconds,
    latencies,
  };
}
