import type { RawRequest } from 'autocannon';
import { percentile, runLoad } from './load.ts';

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
}

type Tagged = Pick<MixedRequest, 'kind' | 'alsoFine'>;

const round2 = (n: number) => Math.round(n * 100) / 100;
const isSuccess = (status: number) => status >= 200 && status <= 299;

/**
 * A closed loop of `connections` clients, each sending its next request of the mix as soon as the
 * last is answered, for `duration` seconds (bench/lib/load.ts's runLoad); every answer's time is
 * reported under its kind.
 */
export async function runMixedLoad(
  base: string,
  settings: { connections: number; duration: number },
  next: (sequence: number) => MixedRequest,
): Promise<MixedResult> {
  const kinds = new Map<string, KindTally>();
  const result = await runLoad(
    base,
    settings,
    (sequence, context) => {
      const { kind, alsoFine, ...request } = next(sequence);
      context.request = { kind, alsoFine } satisfies Tagged;
      return request;
    },
    (context, status, time) => {
      const { kind, alsoFine = [] } = context.request as Tagged;
      let tally = kinds.get(kind);
      if (!tally) kinds.set(kind, (tally = { latencies: [], statusCodes: {}, errors: 0 }));
      tally.latencies.push(time);
      tally.statusCodes[status] = (tally.statusCodes[status] ?? 0) + 1;
      if (!isSuccess(status) && !alsoFine.includes(status)) tally.errors++;
    },
  );
  const byKind: Record<string, KindResult> = {};
  // runLoad counts every non-2xx as an error; here only wrong statuses and failed connections are.
  const non2xx = Object.entries(result.statusCodes)
    .filter(([status]) => !isSuccess(Number(status)))
    .reduce((sum, [, n]) => sum + n, 0);
  let errors = result.errors - non2xx;
  for (const [kind, tally] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = Float64Array.from(tally.latencies).sort();
    errors += tally.errors;
    byKind[kind] = {
      requests: sorted.length,
      rps: Math.round(sorted.length / result.seconds),
      p50: round2(percentile(sorted, 50)),
      p99: round2(percentile(sorted, 99)),
      errors: tally.errors,
      statusCodes: tally.statusCodes,
    };
  }
  return {
    seconds: result.seconds,
    requests: result.requests,
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    errors,
    byKind,
  };
}
