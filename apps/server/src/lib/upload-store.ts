import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where processed images go. A folder by default; the interface leaves room for object storage. */
export interface UploadStore {
  /** Stores bytes under a content-addressed name and answers the public href. */
  save(bytes: Buffer, extension: 'png' | 'jpg' | 'webp'): Promise<string>;
  readonly directory: string;
}

export function createFolderUploadStore(directory: string, publicPrefix: string): UploadStore {
  const root = path.resolve(directory);
  return {
    directory: root,
    async save(bytes, extension) {
      const name = `${crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 32)}.${extension}`;
      await fs.mkdir(root, { recursive: true });
      const target = path.join(root, name);
      // Write then rename, so a crash never leaves a half-written file under a served name.
      const temporary = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, target);
      return `${publicPrefix}/${name}`;
    },
  };
}
