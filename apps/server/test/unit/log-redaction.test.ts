import { expect, it } from 'vitest';
import { urlForLog } from '../../src/lib/log-redaction.ts';

it('keeps socket tokens and private feed addresses out of logged URLs', () => {
  expect(urlForLog('/ws?token=abc.def')).toBe('/ws?token=[redacted]');
  expect(urlForLog('/chat/ann?x=1&TOKEN=secret#h')).toBe('/chat/ann?x=1&TOKEN=[redacted]#h');
  // A ticket is single-use, but one that has not been used yet is as good as a session.
  expect(urlForLog('/ws?ticket=t1ck3t')).toBe('/ws?ticket=[redacted]');
  expect(urlForLog('/api/feeds/Zx9_-secret.atom')).toBe('/api/feeds/[redacted].atom');
  expect(urlForLog('/ink/api/feeds/Zx9_-secret.atom?x=1')).toBe(
    '/ink/api/feeds/[redacted].atom?x=1',
  );
  expect(urlForLog('/api/books/3/feed.atom')).toBe('/api/books/3/feed.atom');
  expect(urlForLog('/api/books?limit=10')).toBe('/api/books?limit=10');
});
