import type { Db } from '../../db/kysely.ts';
import { ByteLru } from '../../lib/byte-lru.ts';
import { nowIso } from '../../lib/convert.ts';
import {
  parseUploadName,
  uploadNameFor,
  type StoredUpload,
  type UploadExtension,
  type UploadStore,
} from '../../lib/upload-store.ts';
import * as repository from './uploads.repository.ts';

/**
 * Memory per process for uploads it has served lately. Browsers and proxies keep an upload for a
 * year (its name never changes meaning), so the database is asked mostly by new visitors for the
 * same few covers of the home page; these need not each cost a query. Nothing here can go stale.
 */
const SERVED_BYTES_CACHE = 32 * 1024 * 1024;

/** Stores the row of `bytes` and answers its name; storing the same bytes again is a no-op. */
export async function storeUpload(
  db: Db,
  bytes: Buffer,
  extension: UploadExtension,
): Promise<{ name: string; stored: boolean }> {
  const name = uploadNameFor(bytes, extension);
  const stored = await repository.insertUpload(db, {
    name,
    content_type: parseUploadName(name)!.contentType,
    bytes,
    size: bytes.length,
    created_at: nowIso(),
  });
  return { name, stored };
}

/** The database store (UPLOAD_STORE=database): every process of the site reads the same rows. */
export function createDatabaseUploadStore(
  db: Db,
  publicPrefix: string,
  cacheBytes = SERVED_BYTES_CACHE,
): UploadStore {
  const served = new ByteLru<StoredUpload>(cacheBytes, (upload) => upload.bytes.length);
  return {
    async save(bytes, extension) {
      const { name } = await storeUpload(db, bytes, extension);
      return `${publicPrefix}/${name}`;
    },
    async read(name) {
      if (!parseUploadName(name)) return null;
      const kept = served.get(name);
      if (kept) return kept;
      const row = await repository.findUpload(db, name);
      if (!row) return null;
      const upload = { bytes: row.bytes, contentType: row.content_type };
      served.set(name, upload);
      return upload;
    },
  };
}
