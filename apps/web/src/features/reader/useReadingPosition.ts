import { useEffect } from 'react';
import { debounce } from '../../lib/debounce.ts';
import { placeAtTop } from '../../lib/paragraphs.ts';

/** Quiet time after scrolling before the position is saved: one request per pause, not per frame. */
export const POSITION_SAVE_DELAY_MS = 2000;
// The sticky reader bar covers the top of the viewport; the paragraph being read starts below it.
const READING_LINE_PX = 80;

interface Options {
  bookId: number;
  chapterId: number;
  content: HTMLElement | null;
  enabled: boolean;
  save(bookId: number, position: { chapter_id: number; paragraph: number; offset: number }): Promise<unknown>;
  onSaved(): void;
}

/**
 * Saves the reader's place in the chapter while they read: after scrolling stops, and at once on
 * leaving the chapter or hiding the page. The place is measured when scheduled, because the
 * chapter's DOM is already gone when the page unmounts.
 */
export function useReadingPosition({ bookId, chapterId, content, enabled, save, onSaved }: Options) {
  useEffect(() => {
    if (!enabled || !content) return;
    const saver = debounce((paragraph: number, offset: number) => {
      save(bookId, { chapter_id: chapterId, paragraph, offset }).then(onSaved, () => {
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
  }, [bookId, chapterId, content, enabled, save, onSaved]);
}

/** Scrolls a chapter to the paragraph a "Continue reading" link names (?paragraph=n), once. */
export function useRestorePosition(content: HTMLElement | null, paragraph: number | null) {
  useEffect(() => {
    if (!content || paragraph === null) return;
    const block = content.children[paragraph];
    if (!block) return;
    // Just below the reader bar, where placeAtTop looks: saving again keeps the same paragraph.
    const top = block.getBoundingClientRect().top + window.scrollY - READING_LINE_PX;
    window.scrollTo({ top: Math.max(top, 0) });
  }, [content, paragraph]);
}
