import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

/** Seconds a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = loadConfig();
const { app, ctx } = await buildApp(config);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  timer.unref();
  // server.close() waits for every connection, and a keep-alive connection whose request was in
  // flight at the signal stays open after its answer; close each as soon as it turns idle.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  sweep.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

// The read workers load their code and open their connections before the server says it is
// ready, not at the first search (tests that build the app leave them lazy).
await ctx.reads.warm();
await app.listen({ port: config.PORT, host: config.HOST });
