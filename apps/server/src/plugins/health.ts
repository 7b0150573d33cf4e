import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Db } from '../db/kysely.ts';

/** A dependency that must answer for the process to take traffic. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<unknown>;
}

// A dependency slower than this counts as down: a load balancer probing readiness must get an
// answer well inside its own timeout, not hang with the pool.
const CHECK_TIMEOUT_MS = 2_000;

export const databaseCheck = (db: Db): ReadinessCheck => ({
  name: 'database',
  check: () => sql`select 1`.execute(db),
});

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

type CheckState = 'ok' | 'down';

/**
 * `{base}/healthz`: liveness, the process answers (no dependency is asked, so a database outage
 * never gets a healthy process restarted). `{base}/readyz`: readiness, every dependency answers;
 * 503 {detail, code: 'unavailable', checks} when one does not, so traffic goes elsewhere.
 */
async function healthPlugin(
  app: FastifyInstance,
  { base, checks }: { base: string; checks: ReadinessCheck[] },
) {
  app.get(`${base}/healthz`, { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get(`${base}/readyz`, { schema: { hide: true } }, async (request, reply) => {
    const results = await Promise.all(
      checks.map(async ({ name, check }): Promise<[string, CheckState]> => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return [name, 'ok'];
        } catch (error) {
          request.log.warn({ err: error, check: name }, 'readiness check failed');
          return [name, 'down'];
        }
      }),
    );
    const down = results.filter(([, state]) => state === 'down').map(([name]) => name);
    const states = Object.fromEntries(results);
    if (down.length === 0) return { status: 'ok', checks: states };
    return reply
      .status(503)
      .header('retry-after', '2')
      .send({
        detail: `Not ready: ${down.join(', ')} unreachable`,
        code: 'unavailable',
        checks: states,
      });
  });
}

export const health = fp(healthPlugin, { name: 'inkwell-health' });
