import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import { createDb } from '../../db/kysely.ts';
import { createSearchEngine } from '../search/search-engine.ts';
import { sendableError, type ReadReply, type ReadRequest } from './read-messages.ts';
import { callRead } from './read-services.ts';

/**
 * A read worker (decision 0041): answers the reads of read-services.ts with a read-only
 * connection of its own, each as its message comes (on SQLite their statements run one after
 * the other, since the connection is synchronous). Loaded by Node's type stripping
 * under the tests (lib/worker-job.ts), by tsx under `npm start`.
 */
const port = parentPort;
if (!port) throw new Error('read-worker.ts runs as a worker thread');
const { config } = workerData as { config: Config };
// On PostgreSQL a worker's reads are few at a time: search's pool size serves them.
const db = createDb(config.DATABASE_URL, {
  size: config.SEARCH_POOL_SIZE,
  waitMs: config.DB_POOL_WAIT_MS,
  statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
  randomPageCost: config.PG_RANDOM_PAGE_COST,
  readOnly: true,
});
const search = createSearchEngine(db, config, { readOnly: true });
const ctx = { db, search };

port.on('message', (message: ReadRequest) => {
  if ('close' in message) {
    void close();
    return;
  }
  callRead(ctx, message.name, message.args as never).then(
    (value) => reply({ id: message.id, value }),
    (error: unknown) => reply({ id: message.id, error: sendableError(error) }),
  );
});

port.postMessage({ ready: true } satisfies ReadReply);

/** Posts an answer; one that cannot cross the thread fails its read, not the worker. */
function reply(answer: ReadReply & { id: number }): void {
  try {
    port?.postMessage(answer);
  } catch (error) {
    port?.postMessage({ id: answer.id, error: sendableError(error) } satisfies ReadReply);
  }
}

/**
 * Closes the connection before the thread ends, whatever else fails: a thread that ended with
 * a SQLite connection open has crashed its process (decision 0038).
 */
async function close(): Promise<void> {
  try {
    await search.close();
  } finally {
    await db.destroy();
    port?.close();
  }
}
