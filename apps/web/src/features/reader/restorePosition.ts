import { useEffect } from 'react';

// The sticky reader bar covers the top of the viewport; the paragraph being read starts below it.
export const READING_LINE_PX = 80;
/** How long the paragraph a link named stays marked, then how long its mark takes to fade. */
export const LOCATED_SHOWN_MS = 1_500;
export const LOCATED_FADE_MS = 1_000;

/** The history entries (this tab's) whose paragraph was already scrolled to. */
const RESTORED_KEY = 'inkwell:restored-paragraphs';

function alreadyRestored(entry: string): boolean {
  try {
    const restored = JSON.parse(sessionStorage.getItem(RESTORED_KEY) ?? '[]') as string[];
    if (restored.includes(entry)) return true;
    // The newest few are enough: an entry is only visited again by Back, Forward or a reload.
    sessionStorage.setItem(RESTORED_KEY, JSON.stringify([...restored, entry].slice(-50)));
  } catch {
    // No storage: restore every time, as before.
  }
  return false;
}

/**
 * Scrolls a chapter to the paragraph a link names (?paragraph=n: "Continue reading", a search
 * passage), and marks it for a moment (data-located), so the eye finds it. Once per history
 * entry (`entry`: the location's key and address): coming back to the entry by Back or a reload
 * keeps the place the reader had reached (the router's scroll restoration), instead of moving
 * them back to the link's paragraph, which the position saver would then store over their
 * progress.
 */
export function useRestorePosition(
  content: HTMLElement | null,
  paragraph: number | null,
  entry: string,
) {
  useEffect(() => {
    if (!content || paragraph === null) return;
    const block = content.children[paragraph];
    if (!block || alreadyRestored(entry)) return;
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
  }, [content, paragraph, entry]);
}
