import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type UploadExtension = 'png' | 'jpg' | 'webp';

const CONTENT_TYPES: Record<UploadExtension, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/**
 * The only names a store makes and serves: 32 hex digits of the bytes' SHA-256, then the format.
 * Nothing else is ever looked up, so no name can reach outside the store (`../`, `%2f`, ...).
 */
const UPLOAD_NAME = /^([0-9a-f]{32})\.(png|jpg|webp)$/;

export interface UploadName {
  /** The bytes' content hash: the name never changes meaning, so it is also a strong ETag. */
  hash: string;
  extension: UploadExtension;
  contentType: string;
}

/** What a well-formed upload name says; null for any other name. */
export function parseUploadName(name: string): UploadName | null {
  const match = UPLOAD_NAME.exec(name);
  if (!match) return null;
  const extension = match[2] as UploadExtension;
  return { hash: match[1]!, extension, contentType: CONTENT_TYPES[extension] };
}

/** The name stores keep `bytes` under: the same bytes always get the same name, in every store. */
export function uploadNameFor(bytes: Buffer, extension: UploadExtension): string {
  return `${crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension}`;
}

/** The name at the end of a stored href (`{base}/uploads/<name>`). */
export const uploadNameOfHref = (href: string): string => href.slice(href.lastIndexOf('/') + 1);

export interface StoredUpload {
  bytes: Buffer;
  contentType: string;
}

/**
 * Where processed images go (UPLOAD_STORE): a folder (below) or the database
 * (modules/uploads/database-upload-store.ts). Both answer the same href for the same bytes,
 * `{base}/uploads/<name>`, so rows that hold hrefs never change when the store does.
 */
export interface UploadStore {
  /** Stores bytes under their content-addressed name and answers the public href. */
  save(bytes: Buffer, extension: UploadExtension): Promise<string>;
  /** The bytes kept under `name`; null when there are none, or `name` is not a store's name. */
  read(name: string): Promise<StoredUpload | null>;
}

/** The folder store: one file per upload in `directory`. */
export function createFolderUploadStore(directory: string, publicPrefix: string): UploadStore {
  const root = path.resolve(directory);
  // Created now, so that a folder the process cannot write stops the start, not the first upload.
  fs.mkdirSync(root, { recursive: true });
  return {
    async save(bytes, extension) {
      const name = uploadNameFor(bytes, extension);
      const target = path.join(root, name);
      // Write then rename, so a crash never leaves a half-written file under a served name.
      const temporary = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`;
      await fs.promises.writeFile(temporary, bytes);
      await fs.promises.rename(temporary, target);
      return `${publicPrefix}/${name}`;
    },
    async read(name) {
      const parsed = parseUploadName(name);
      if (!parsed) return null;
      try {
        return {
          bytes: await fs.promises.readFile(path.join(root, name)),
          contentType: parsed.contentType,
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
