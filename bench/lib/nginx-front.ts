import { startNginx } from '../../apps/server/test/helpers/nginx.ts';

/** What the load goes to: nginx in front of the processes, or one process itself. */
export interface Front {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx with the shipped deploy/nginx/inkwell.conf in front of `upstreams` (host:port),
 * through the same harness as the load-balancer tests, so the bench measures the tested setup.
 */
export async function startNginxFront(upstreams: string[]): Promise<Front> {
  const nginx = await startNginx({ upstreams });
  return { url: nginx.http, stop: () => nginx.stop() };
}
