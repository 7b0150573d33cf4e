import { describe, expect, it } from 'vitest';
import { EpubTooLarge } from '../../src/modules/exports/build-in-worker.ts';
import { EpubStore } from '../../src/modules/exports/epub-store.ts';

const store = (options: Partial<ConstructorParameters<typeof EpubStore>[0]> = {}) =>
  new EpubStore({ maxBytes: 1000, concurrency: 1, maxQueued: 5, ...options });

/** A build the test finishes when it likes. */
function heldBuild() {
  let finish!: (bytes: Buffer) => void;
  let started = false;
  const done = new Promise<Buffer>((resolve) => (finish = resolve));
  return {
    build: () => {
      started = true;
      return done;
    },
    finish,
    started: () => started,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('EpubStore', () => {
  it('builds a file once for everyone who asks meanwhile, then serves it kept', async () => {
    const epubs = store();
    const held = heldBuild();
    const asks = [1, 2, 3].map(() => epubs.get('1:readers', 'v1', held.build));
    held.finish(Buffer.from('epub'));
    expect((await Promise.all(asks)).map(String)).toEqual(['epub', 'epub', 'epub']);
    expect(String(await epubs.get('1:readers', 'v1', () => Promise.reject(new Error('no'))))).toBe(
      'epub',
    );
    expect(epubs.builds).toBe(1);
  });

  it('builds anew for a new fingerprint, and keeps audiences apart', async () => {
    const epubs = store();
    await epubs.get('1:readers', 'v1', async () => Buffer.from('old'));
    expect(String(await epubs.get('1:readers', 'v2', async () => Buffer.from('new')))).toBe('new');
    expect(String(await epubs.get('1:author', 'v2', async () => Buffer.from('drafts')))).toBe(
      'drafts',
    );
    expect(String(await epubs.get('1:readers', 'v2', async () => Buffer.from('x')))).toBe('new');
    expect(epubs.builds).toBe(3);
  });

  it('drops the least recently used files beyond its memory, and keeps none larger than it', async () => {
    const epubs = store({ maxBytes: 10 });
    await epubs.get('a', 'v', async () => Buffer.alloc(4));
    await epubs.get('b', 'v', async () => Buffer.alloc(4));
    await epubs.get('a', 'v', async () => Buffer.alloc(4)); // a used again: b is the oldest
    await epubs.get('c', 'v', async () => Buffer.alloc(4));
    expect(epubs.builds).toBe(3);
    await epubs.get('a', 'v', async () => Buffer.alloc(4));
    expect(epubs.builds).toBe(3);
    await epubs.get('b', 'v', async () => Buffer.alloc(4));
    expect(epubs.builds).toBe(4);
    await epubs.get('huge', 'v', async () => Buffer.alloc(11));
    await epubs.get('huge', 'v', async () => Buffer.alloc(11));
    expect(epubs.builds).toBe(6);
  });

  it('remembers that a book is too large until it changes', async () => {
    const epubs = store();
    const tooLarge = async (): Promise<Buffer> => {
      throw new EpubTooLarge(1024 * 1024);
    };
    await expect(epubs.get('1:readers', 'v1', tooLarge)).rejects.toBeInstanceOf(EpubTooLarge);
    await expect(epubs.get('1:readers', 'v1', tooLarge)).rejects.toBeInstanceOf(EpubTooLarge);
    expect(epubs.builds).toBe(1);
    // Other failures are not kept.
    await expect(
      epubs.get('2:readers', 'v1', () => Promise.reject(new Error('crash'))),
    ).rejects.toThrow('crash');
    expect(String(await epubs.get('2:readers', 'v1', async () => Buffer.from('ok')))).toBe('ok');
  });

  it('runs a few builds at once, queues some, and refuses beyond with 503', async () => {
    const epubs = store({ concurrency: 1, maxQueued: 1 });
    const first = heldBuild();
    const second = heldBuild();
    const running = epubs.get('a', 'v', first.build);
    const queued = epubs.get('b', 'v', second.build);
    await tick();
    expect([first.started(), second.started()]).toEqual([true, false]);
    await expect(epubs.get('c', 'v', async () => Buffer.from('c'))).rejects.toMatchObject({
      code: 'unavailable',
      headers: { 'retry-after': '60' },
    });
    first.finish(Buffer.from('a'));
    await running;
    await tick();
    expect(second.started()).toBe(true);
    second.finish(Buffer.from('b'));
    expect(String(await queued)).toBe('b');
    expect(String(await epubs.get('c', 'v', async () => Buffer.from('c')))).toBe('c');
  });
});
