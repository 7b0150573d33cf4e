import { useEffect } from 'react';
import { debounce } from '../../lib/debounce.ts';
import { placeAtTop } from '../../lib/paragraphs.ts';
import { READING_LINE_PX } from './restorePosition.ts';

/** Quiet time after scrolling before the position is saved: one request per pause, not per frame. */
const POSITION_SAVE_DELAY_MS = 2000;

interface Options {
  bookId: number;
  chapterId: number;
  content: HTMLElement | null;
  enabled: boolean;
  save(
    bookId: number,
    position: { chapter_id: number; paragraph: number; offset: number },
  ): Promise<unknown>;
}

/**
 * Saves the reader's place in the chapter while they read: after scrolling stops, and at once on
 * leaving the chapter or hiding the page. The place is measured when scheduled, because the
 * chapter's DOM is already gone when the page unmounts.
 */
export function useReadingPosition({ bookId, chapterId, content, enabled, save }: Options) {
  useEffect(() => {
    if (!enabled || !content) return;
    const saver = debounce((paragraph: number, offset: number) => {
      save(bookId, { chapter_id: chapterId, paragraph, offset }).catch(() => {
        // Losing one position save is harmless: the next scroll saves again.
      });
    }, POSITION_SAVE_DELAY_MS);
    const measure = () => {
      const place = placeAtTop(content, READING_LINE_PX);
      if (place) saver.schedule(place.paragraph, place.offset);
    };
    const onHide = () => document.visibilityState === 'hidden' && saver.flush();
    measure();
    window.addEventListener('scroll', measure, { passive: true });
    document.addEventListener('visibilitychange', onHide);
    return () => {
      window.removeEventListener('scroll', measure);
      document.removeEventListener('visibilitychange', onHide);
      saver.flush();
    };
  }, [bookId, chapterId, content, enabled, save]);
}
