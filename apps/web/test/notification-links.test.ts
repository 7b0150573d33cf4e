import { describe, expect, it } from 'vitest';
import { notificationHref } from '../src/features/notifications/api/notifications.ts';

const none = { book_id: null, chapter_id: null, follower: null };

describe('where a notification leads', () => {
  it('a COMMENT or a REPLY leads to the chapter commented on (issue 19)', () => {
    for (const type of ['COMMENT', 'REPLY'] as const)
      expect(notificationHref({ ...none, type, book_id: 3, chapter_id: 9 })).toBe(
        '/books/3/chapters/9',
      );
  });

  it('a CHAPTER to the chapter, a FOLLOW to the follower, and nothing without its fields', () => {
    expect(notificationHref({ ...none, type: 'CHAPTER', book_id: 1, chapter_id: 2 })).toBe(
      '/books/1/chapters/2',
    );
    expect(notificationHref({ ...none, type: 'FOLLOW', follower: 'ann' })).toBe('/authors/ann');
    expect(notificationHref({ ...none, type: 'COMMENT' })).toBeUndefined();
  });

  it('an ANNOUNCEMENT leads to it on its book page (issue 20)', () => {
    expect(
      notificationHref({ ...none, type: 'ANNOUNCEMENT', book_id: 4, announcement_id: 7 }),
    ).toBe('/books/4#announcement-7');
    expect(notificationHref({ ...none, type: 'ANNOUNCEMENT', book_id: 4 })).toBe('/books/4');
    expect(notificationHref({ ...none, type: 'ANNOUNCEMENT' })).toBeUndefined();
  });
});
