import { CHUNK_LOAD_TIMEOUT_MS } from './constants.ts';

/** A lazily loaded script that did not arrive: it failed, or took longer than the chunk timeout. */
class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('Part of the app could not be loaded. Check your connection and reload the page.', {
      cause,
    });
    this.name = 'ChunkLoadError';
  }
}

export function loadChunk<T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}
