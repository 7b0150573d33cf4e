import { useEffect } from 'react';

// The sticky reader bar covers the top of the viewport; the paragraph being read starts below it.
export const READING_LINE_PX = 80;

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
