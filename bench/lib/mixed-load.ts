import autocannon, { type RawRequest } from 'autocannon';
import { percentile } from './load.ts';

/** One request of a mix, with the kind it is reported under and the statuses that are answers. */
export interface MixedRequest extends RawRequest {
  kind: string;
  /** Statuses that count as a right answer besides 2xx (a repeated history record is 409). */
  alsoFine?: readonly number[];
}

export interface KindResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface MixedResult {
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Wrong statuses plus connection errors and timeouts. */
  errors: number;
  byKind: Record<string, KindResult>;
}

interface KindTally {
  latencies: number[];
  statusCodes: Record<string, number>;
  errors: number;
  alsoFine: readonly number[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A closed loop of `connections` clients, each sending its next request of the mix as soon as the
 * last is answered, for `duration` seconds; every answer's time is reported under its kind.
 *
 * autocannon calls `setupRequest` with the connection's own context; with one request in flight
 * per connection (no pipelining) the context still names the kind of the request just answered
 * when the 'response' event fires, which is how each time finds its kind.
 */
export function runMixedLoad(
  base: string,
  settings: { connections: number; duration: number },
  next: (sequence: number) => MixedRequest,
): Promise<MixedResult> {
  let sequence = 0;
  const kinds = new Map<string, KindTally>();
  const tallyOf = (request: MixedRequest) => {
    let tally = kinds.get(request.kind);
    if (!tally) {
      tally = { latencies: [], statusCodes: {}, errors: 0, alsoFine: request.alsoFine ?? [] };
      kinds.set(request.kind, tally);
    }
    return tally;
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: settings.connections,
        duration: settings.duration,
        pipelining: 1,
        timeout: 10,
        requests: [
          {
            setupRequest: (request, context) => {
              const { kind, alsoFine, headers, ...rest } = next(sequence++);
              context.request = { kind, alsoFine };
              return Object.assign(request, { method: 'GET' }, rest, {
                headers: { ...request.headers, ...headers },
              });
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        const byKind: Record<string, KindResult> = {};
        const all: number[] = [];
        // autocannon's errors are connection errors and timeouts (a timeout counts in both).
        let errors = result.errors;
        for (const [kind, tally] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
          const sorted = Float64Array.from(tally.latencies).sort();
          all.push(...tally.latencies);
          errors += tally.errors;
          byKind[kind] = {
            requests: sorted.length,
            rps: Math.round(sorted.length / result.duration),
            p50: round2(percentile(sorted, 50)),
            p99: round2(percentile(sorted, 99)),
            errors: tally.errors,
            statusCodes: tally.statusCodes,
          };
        }
        const sorted = Float64Array.from(all).sort();
        resolve({
          seconds: result.duration,
          requests: sorted.length,
          rps: Math.round(sorted.length / result.duration),
          p50: round2(percentile(sorted, 50)),
          p99: round2(percentile(sorted, 99)),
          errors,
          byKind,
        });
      },
    );
    instance.on(
      'response',
      (
        client: { requestIterator?: { context?: Record<string, unknown> } },
        status: number,
        _bytes: number,
        time: number,
      ) => {
        const request = client.requestIterator?.context?.request as MixedRequest | undefined;
        if (!request) throw new Error("autocannon's client no longer exposes its context");
        const tally = tallyOf(request);
        tally.latencies.push(time);
        tally.statusCodes[status] = (tally.statusCodes[status] ?? 0) + 1;
        if ((status < 200 || status > 299) && !tally.alsoFine.includes(status)) tally.errors++;
      },
    );
  });
}
