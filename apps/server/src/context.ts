import type { Config } from './config.ts';
import type { Db } from './db/kysely.ts';
import type { EventBus } from './realtime/events.ts';
import type { UploadStore } from './plugins/upload-store.ts';

/** What services need from the outside world; built once in buildApp and handed to every route. */
export interface AppContext {
  db: Db;
  config: Config;
  events: EventBus;
  uploads: UploadStore;
}

/** The signed-in user making a request, as resolved from the bearer token or the session cookie. */
export interface Viewer {
  id: number;
  username: string;
  sessionId: number;
}
