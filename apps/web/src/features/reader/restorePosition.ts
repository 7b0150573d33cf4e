import { useEffect } from 'react';

// The sticky reader bar covers the top of the viewport; the paragraph being read starts below it.
export const READING_LINE_PX = 80;
/** How long the paragraph a link named stays marked, then how long its mark takes to fade. */
export const LOCATED_SHOWN_MS = 1_500;
export const LOCATED_FADE_MS = 1_000;

/**
 * Scrolls a chapter to the paragraph a link names (?paragraph=n: "Continue reading", a search
 * passage), once, and marks it for a moment (data-located), so the eye finds it.
 */
export function useRestorePosition(content: HTMLElement | null, paragraph: number | null) {
  useEffect(() => {
    if (!content || paragraph === null) return;
    const block = content.children[paragraph];
    if (!block) return;
    // Just below the reader bar, where placeAtTop looks: saving again keeps the same paragraph.
    const top = block.getBoundingClientRect().top + window.scrollY - READING_LINE_PX;
    window.scrollTo({ top: Math.max(top, 0) });
    block.setAttribute('data-located', 'shown');
    const fade = setTimeout(() => block.setAttribute('data-located', 'fading'), LOCATED_SHOWN_MS);
    const end = setTimeout(
      () => block.removeAttribute('data-located'),
      LOCATED_SHOWN_MS + LOCATED_FADE_MS,
    );
    return () => {
      clearTimeout(fade);
      clearTimeout(end);
      block.removeAttribute('data-located');
    };
  }, [content, paragraph]);
}
