import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';
import { ImportFileError } from './errors.ts';

/**
 * Bounds on what an archive may hold. A zip bomb declares or hides a huge expansion; the
 * declared sizes are checked before anything is inflated, and yauzl stops any entry whose data
 * runs past its declared size, so nothing ever inflates beyond these numbers.
 */
export interface ZipLimits {
  maxEntries: number;
  maxTotalBytes: number;
  maxEntryBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 200 * 1024 * 1024,
  maxEntryBytes: 50 * 1024 * 1024,
};

const MB = 1024 * 1024;

/** An archive read from memory, whose entries are inflated one at a time on demand. */
export class ZipArchive {
  private readonly zip: yauzl.ZipFile;
  private readonly entries: Map<string, yauzl.Entry>;
  private readonly lowerCase: Map<string, string>;

  private constructor(zip: yauzl.ZipFile, entries: Map<string, yauzl.Entry>) {
    this.zip = zip;
    this.entries = entries;
    this.lowerCase = new Map([...entries.keys()].map((name) => [name.toLowerCase(), name]));
  }

  static async open(
    bytes: Uint8Array,
    limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ): Promise<ZipArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.fromBufferPromise(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        {
          lazyEntries: true,
          validateEntrySizes: true,
        },
      );
    } catch {
      throw new ImportFileError(
        'The file is not a readable zip archive: it may be damaged or truncated',
      );
    }
    if (zip.entryCount > limits.maxEntries) {
      throw new ImportFileError(
        `The archive holds ${zip.entryCount} files; at most ${limits.maxEntries} are accepted`,
      );
    }
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName.endsWith('/')) continue;
        total += entry.uncompressedSize;
        if (entry.uncompressedSize > limits.maxEntryBytes || total > limits.maxTotalBytes) {
          throw new ImportFileError(
            `The archive would expand to more than ${Math.round(limits.maxTotalBytes / MB)} MB (or one file to more than ${Math.round(limits.maxEntryBytes / MB)} MB): refusing what looks like a zip bomb`,
          );
        }
        entries.set(entry.fileName, entry);
      }
    } catch (error) {
      if (error instanceof ImportFileError) throw error;
      throw new ImportFileError(`The zip archive is damaged: ${describe(error)}`);
    }
    return new ZipArchive(zip, entries);
  }

  get names(): string[] {
    return [...this.entries.keys()];
  }

  /** The stored name for a path, matched exactly or, failing that, ignoring case (as some tools write them). */
  resolve(path: string): string | undefined {
    return this.entries.has(path) ? path : this.lowerCase.get(path.toLowerCase());
  }

  has(path: string): boolean {
    return this.resolve(path) !== undefined;
  }

  async read(path: string): Promise<Buffer> {
    const name = this.resolve(path);
    const entry = name === undefined ? undefined : this.entries.get(name);
    if (!entry) throw new ImportFileError(`The archive has no file ${path}`);
    if (entry.isEncrypted())
      throw new ImportFileError(`${path} is encrypted; encrypted archives cannot be imported`);
    if (!entry.canDecodeFileData()) {
      throw new ImportFileError(
        `${path} uses a compression method that cannot be read (only stored and deflated files)`,
      );
    }
    try {
      return await buffer(await this.zip.openReadStreamPromise(entry));
    } catch (error) {
      if (/too many bytes/i.test(describe(error))) {
        throw new ImportFileError(
          `${path} holds more data than the archive declares: refusing what looks like a zip bomb`,
        );
      }
      throw new ImportFileError(
        `${path} could not be unpacked; the archive is damaged (${describe(error)})`,
      );
    }
  }

  async readText(path: string): Promise<string> {
    return decodeText(await this.read(path));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Text of a file whose encoding is not announced reliably: a byte-order mark wins, then UTF-8
 * when the bytes are valid UTF-8, then Windows-1252, the usual encoding of older text files.
 * U+0000 is dropped: no format means anything by it, and PostgreSQL refuses it in text (the
 * chapter holding it could not be stored). The decoders leave no lone surrogate.
 */
export function decodeText(bytes: Uint8Array): string {
  return decodeTextAsIs(bytes).replaceAll('\u0000', '');
}

function decodeTextAsIs(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
