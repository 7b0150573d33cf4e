import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';

export interface ZipItem {
  name: string;
  data: Buffer | Uint8Array | string;
  /** Stored without compression (EPUB's mimetype must be). */
  store?: boolean;
}

/**
 * Writes a zip entry by entry, in the order given, its bytes coming out of `output` as they
 * are made: nothing needs the whole archive's content at once. DOS timestamps only: no extra
 * fields, which EPUB forbids on its mimetype entry and which no reader needs elsewhere.
 * (Loaded in a worker thread: no TypeScript-only syntax here.)
 */
export class ZipWriter {
  private readonly zip = new yazl.ZipFile();
  private readonly mtime: Date;

  constructor(mtime = new Date()) {
    this.mtime = mtime;
  }

  /** The archive's bytes, as they are made; ends after `end()`. */
  get output(): Readable {
    return this.zip.outputStream as Readable;
  }

  add(item: ZipItem): void {
    const data =
      typeof item.data === 'string' ? Buffer.from(item.data, 'utf8') : Buffer.from(item.data);
    this.zip.addBuffer(data, item.name, {
      compress: !item.store,
      forceDosTimestamp: true,
      mtime: this.mtime,
    });
  }

  end(): void {
    this.zip.end();
  }
}

/** A whole zip of these items, in this order. */
export async function writeZip(items: readonly ZipItem[], mtime = new Date()): Promise<Buffer> {
  const zip = new ZipWriter(mtime);
  for (const item of items) zip.add(item);
  zip.end();
  return buffer(zip.output);
}
