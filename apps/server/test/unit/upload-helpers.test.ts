import { describe, expect, it } from 'vitest';
import { ByteLru } from '../../src/lib/byte-lru.ts';
import { ifNoneMatchLists } from '../../src/lib/etag.ts';
import { parseUploadName, uploadNameFor } from '../../src/lib/upload-store.ts';
import { progressLine } from '../../src/scripts/progress.ts';

describe('upload names', () => {
  it('are 32 hex digits of the content hash and the format, and nothing else', () => {
    const name = uploadNameFor(Buffer.from('pixels'), 'jpg');
    expect(name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(uploadNameFor(Buffer.from('pixels'), 'jpg')).toBe(name);
    expect(parseUploadName(name)).toEqual({
      hash: name.slice(0, 32),
      extension: 'jpg',
      contentType: 'image/jpeg',
    });
    for (const other of [
      `${name}.tmp`,
      `../${name}`,
      `${name.slice(0, 32)}.svg`,
      name.toUpperCase(),
      `x${name}`,
      `${name}\n`,
    ])
      expect(parseUploadName(other), other).toBeNull();
  });
});

describe('ifNoneMatchLists', () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" ', true],
    ['"abcd"', false],
    ['abc', false],
    ['*', false],
    ['', false],
    [undefined, false],
  ])('%j → %s', (header, matches) => {
    expect(ifNoneMatchLists(header, tag)).toBe(matches);
  });
});

describe('ByteLru', () => {
  const lru = (max: number) => new ByteLru<Buffer>(max, (b) => b.length);

  it('lets the least recently used go first, within its budget', () => {
    const cache = lru(800);
    cache.set('a', Buffer.alloc(100));
    cache.set('b', Buffer.alloc(100));
    expect(cache.get('a')).toBeDefined(); // b is now the least recently used
    for (const key of ['c', 'd', 'e', 'f', 'g', 'h']) cache.set(key, Buffer.alloc(100));
    expect(cache.size).toBe(800);
    cache.set('i', Buffer.alloc(100));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(800);
  });

  it('keeps nothing larger than an eighth of the budget, and nothing at all with none', () => {
    const cache = lru(800);
    cache.set('big', Buffer.alloc(101));
    expect(cache.get('big')).toBeUndefined();
    const none = lru(0);
    none.set('a', Buffer.alloc(1));
    expect(none.get('a')).toBeUndefined();
    expect(none.size).toBe(0);
  });
});

describe('progressLine', () => {
  const output = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, out: { isTTY, write: (text: string) => written.push(text) } };
  };

  it('redraws one line in place on a terminal', () => {
    const { written, out } = output(true);
    const line = progressLine(out, 'files');
    for (let done = 0; done <= 4; done++) line.draw(done / 4, `${done} of 4`);
    line.end(1, '4 of 4', 'Copied 4');
    expect(written).toHaveLength(6);
    expect(written.every((text) => text.startsWith('\r\x1b[2K['))).toBe(true);
    expect(written.at(-1)).toBe(`\r\x1b[2K[${'#'.repeat(30)}] 100% files: 4 of 4\nCopied 4\n`);
  });

  it('writes a line per tenth elsewhere, and the last state once', () => {
    const { written, out } = output(false);
    const line = progressLine(out, 'files');
    for (let done = 0; done <= 100; done++) line.draw(done / 100, `${done} of 100`);
    line.end(1, '100 of 100', 'Copied 100');
    const text = written.join('');
    expect(text).not.toContain('\r');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe(`[${'.'.repeat(30)}]   0% files: 0 of 100`);
    expect(lines.at(-2)).toBe(`[${'#'.repeat(30)}] 100% files: 100 of 100`);
    expect(lines.at(-1)).toBe('Copied 100');
  });
});
