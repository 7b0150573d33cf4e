import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/kysely.ts';
import { notFound } from '../../lib/errors.ts';
import {
  createFolderUploadStore,
  parseUploadName,
  type StoredUpload,
  type UploadStore,
} from '../../lib/upload-store.ts';
import { createDatabaseUploadStore } from './database-upload-store.ts';

/** The store UPLOAD_STORE names, handing out hrefs under `{base}/uploads/`. */
export function createUploadStore(config: Config, db: Db): UploadStore {
  const publicPrefix = `${config.BASE_PATH}/uploads`;
  return config.UPLOAD_STORE === 'database'
    ? createDatabaseUploadStore(db, publicPrefix)
    : createFolderUploadStore(config.UPLOAD_DIR, publicPrefix);
}

/**
 * The strong ETag of the upload named `name`: its content hash, known without reading it. A
 * name no store makes is a 404 like an unknown one: one thing has one address (decision 0001).
 */
export function uploadEtag(name: string): string {
  const parsed = parseUploadName(name);
  if (!parsed) throw notFound();
  return `"${parsed.hash}"`;
}

/** The upload named `name`, from whichever store this site uses; 404 when it has none. */
export async function readUpload(ctx: AppContext, name: string): Promise<StoredUpload> {
  const upload = await ctx.uploads.read(name);
  if (!upload) throw notFound();
  return upload;
}
