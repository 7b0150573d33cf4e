import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnswerCache, COMPRESS_FROM_BYTES, compressible } from '../../src/lib/answer-cache.ts';

const answer = (key: string, body: string) => ({
  key,
  route: '/api/things/:id',
  headers: ['content-type', 'application/json'],
  body: Buffer.from(body),
  etag: `W/"${key}"`,
});

function cacheAt(options: { maxBytes?: number; maxAgeMs?: number } = {}) {
  let now = 1_000;
  const cache = new AnswerCache({
    maxBytes: options.maxBytes ?? 1_000_000,
    maxAgeMs: options.maxAgeMs ?? 5_000,
    now: () => now,
  });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('AnswerCache', () => {
  it('keeps an answer until something changes', () => {
    const { cache } = cacheAt();
    cache.set(answer('/a', 'one'), cache.generation);
    expect(cache.get('/a')?.stored.toString()).toBe('one');
    cache.invalidate();
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.storedBytes).toBe(0);
  });

  it('refuses an answer computed by a request that arrived before the last change', () => {
    const { cache } = cacheAt();
    const arrival = cache.generation;
    cache.invalidate();
    cache.set(answer('/a', 'read before the write'), arrival);
    expect(cache.get('/a')).toBeUndefined();
    cache.set(answer('/a', 'read after the write'), cache.generation);
    expect(cache.get('/a')?.stored.toString()).toBe('read after the write');
  });

  it('drops only the answers of a scope when that scope changes, and all of them on any change', () => {
    const { cache } = cacheAt();
    cache.set(answer('/chapter', 'text'), cache.generation);
    cache.set({ ...answer('/comments', 'c1'), scope: 'comments' }, cache.generation);
    const arrival = cache.generation;
    cache.invalidateScope('comments');
    expect(cache.get('/comments')).toBeUndefined();
    expect(cache.get('/chapter')?.stored.toString()).toBe('text');
    // A comment read computed before the change is not kept; an unscoped one still is.
    cache.set({ ...answer('/comments', 'stale'), scope: 'comments' }, arrival);
    expect(cache.get('/comments')).toBeUndefined();
    cache.set(answer('/other', 'fine'), arrival);
    expect(cache.get('/other')).toBeDefined();
    cache.set({ ...answer('/comments', 'c2'), scope: 'comments' }, cache.generation);
    expect(cache.storedBytes).toBe('text'.length + 'fine'.length + 'c2'.length);
    cache.invalidate();
    expect(cache.size).toBe(0);
    cache.set({ ...answer('/comments', 'late'), scope: 'comments' }, arrival);
    expect(cache.get('/comments')).toBeUndefined();
  });

  it('stops using an answer older than the maximum age', () => {
    const { cache, advance } = cacheAt({ maxAgeMs: 100 });
    cache.set(answer('/a', 'one'), cache.generation);
    advance(100);
    expect(cache.get('/a')).toBeDefined();
    advance(1);
    expect(cache.get('/a')).toBeUndefined();
    expect(cache.storedBytes).toBe(0);
  });

  it('lets the oldest answers go when over its byte budget', () => {
    const { cache } = cacheAt({ maxBytes: 400 });
    for (const key of ['/1', '/2', '/3', '/4']) cache.set(answer(key, 'x'.repeat(100)), 0);
    expect(cache.size).toBe(4);
    cache.set(answer('/5', 'y'.repeat(100)), 0);
    expect(cache.get('/1')).toBeUndefined();
    expect(cache.get('/5')).toBeDefined();
    expect(cache.storedBytes).toBe(400);
  });

  it('keeps a body of COMPRESS_FROM_BYTES or more gzipped, inflates it once, and counts what it keeps', () => {
    const { cache } = cacheAt();
    const text = JSON.stringify({ content: 'All happy families are alike. '.repeat(200) });
    const kept = cache.set(answer('/big', text), 0)!;
    expect(kept.compressed).toBe(true);
    expect(zlib.gunzipSync(kept.stored).toString()).toBe(text);
    expect(cache.storedBytes).toBe(kept.stored.length);
    expect(cache.storedBytes).toBeLessThan(text.length / 4);
    // Inflated once for clients without gzip, and counted while kept.
    const plain = cache.plainBody(kept);
    expect(plain.toString()).toBe(text);
    expect(cache.plainBody(kept)).toBe(plain);
    expect(cache.storedBytes).toBe(kept.stored.length + plain.length);
    cache.invalidate();
    expect(cache.storedBytes).toBe(0);
    const again = cache.set(answer('/big', text), cache.generation)!;
    const small = cache.set(
      answer('/small', 'x'.repeat(COMPRESS_FROM_BYTES - 1)),
      cache.generation,
    )!;
    expect(small.compressed).toBe(false);
    expect(cache.plainBody(small).toString()).toBe('x'.repeat(COMPRESS_FROM_BYTES - 1));
    expect(cache.storedBytes).toBe(again.stored.length + COMPRESS_FROM_BYTES - 1);
  });

  it('counts a body by its bytes, not its characters, for whether it is compressed', () => {
    // 600 characters of two bytes each: compressed, whether as sent (a string) or as kept.
    const accented = 'é'.repeat(600);
    expect(compressible(accented)).toBe(true);
    expect(compressible(Buffer.from(accented))).toBe(true);
    expect(compressible('e'.repeat(COMPRESS_FROM_BYTES - 1))).toBe(false);
    expect(cacheAt().cache.set(answer('/é', accented), 0)?.compressed).toBe(true);
  });

  it('never keeps an answer larger than a quarter of its budget, nor anything when disabled', () => {
    const { cache } = cacheAt({ maxBytes: 400 });
    cache.set(answer('/big', 'z'.repeat(101)), 0);
    expect(cache.get('/big')).toBeUndefined();

    const off = cacheAt({ maxBytes: 0 }).cache;
    expect(off.enabled).toBe(false);
    off.set(answer('/a', 'one'), 0);
    expect(off.get('/a')).toBeUndefined();
  });

  it('replaces an answer kept under the same key', () => {
    const { cache } = cacheAt();
    cache.set(answer('/a', 'one'), 0);
    cache.set(answer('/a', 'three'), 0);
    expect(cache.get('/a')?.stored.toString()).toBe('three');
    expect(cache.storedBytes).toBe(5);
  });
});
