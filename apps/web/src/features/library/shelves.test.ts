import { describe, expect, it } from 'vitest';
import { continueReadingPath, progressText } from './shelves.ts';

describe('progressText', () => {
  it('says chapters read of total, singular for one', () => {
    expect(progressText({ chapters_read: 2, total_chapters: 5 })).toBe('2 of 5 chapters read');
    expect(progressText({ chapters_read: 0, total_chapters: 1 })).toBe('0 of 1 chapter read');
  });
});

describe('continueReadingPath', () => {
  const book = { id: 7 } as Parameters<typeof continueReadingPath>[0]['book'];
  it('links to the saved chapter and paragraph', () => {
    const position = {
      chapter_id: 12,
      chapter_title: 'Two',
      chapter_order: 2,
      paragraph: 4,
      offset: 10,
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    expect(continueReadingPath({ book, position })).toBe('/books/7/chapters/12?paragraph=4');
  });
  it('is null before any reading', () => {
    expect(continueReadingPath({ book, position: null })).toBeNull();
  });
});
