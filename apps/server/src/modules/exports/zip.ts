import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';

export interface ZipItem {
  name: string;
  data: Buffer | Uint8Array | string;
  /** Stored without compression (EPUB's mimetype must be). */
  store?: boolean;
}

/**
 * Writes a zip in the order given. DOS timestamps only: no extra fields, which EPUB forbids on
 * its mimetype entry and which no reader needs elsewhere.
 */
export async function writeZip(items: readonly ZipItem[], mtime = new Date()): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const item of items) {
    const data =
      typeof item.data === 'string' ? Buffer.from(item.data, 'utf8') : Buffer.from(item.data);
    zip.addBuffer(data, item.name, { compress: !item.store, forceDosTimestamp: true, mtime });
  }
  zip.end();
  return buffer(zip.outputStream);
}
