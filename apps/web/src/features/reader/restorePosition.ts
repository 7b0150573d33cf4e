import { useEffect } from 'react';

// The sticky reader bar covers the top of the viewport; the paragraph being read starts below it.
export const READING_LINE_PX = 80;
/** How long the paragraph a link named stays marked, then how long its mark takes to fade. */
export const LOCATED_SHOWN_MS = 1_500;
export const LOCATED_FADE_MS = 1_000;

/** The history entries (this tab's) whose paragraph was already scrolled to. */
const RESTORED_KEY = 'inkwell:restored-paragraphs';

/** This page load's own name: the router calls every entry a page load starts on "default". */
const PAGE_LOAD = Math.random().toString(36).slice(2);

/** Where a reader is: the router's location. */
export interface Entry {
  key: string;
  pathname: string;
  search: string;
}

/** Whether this page load is a reload, or Back or Forward into the site (not a link followed). */
function pageLoadCameBack(): boolean {
  const [load] = (performance.getEntriesByType?.('navigation') ??
    []) as PerformanceNavigationTiming[];
  return load?.type === 'reload' || load?.type === 'back_forward';
}

/** Whether `entry`'s paragraph was scrolled to already; if not, it is noted as scrolled to now. */
function restoredBefore(entry: Entry): boolean {
  // The entry a page load starts on: a reload (or Back into the site) comes back to it; a link
  // or a bookmark opened afresh is a new visit, though the router names both "default".
  if (entry.key === 'default' && pageLoadCameBack()) return true;
  const name = `${entry.key === 'default' ? `default-${PAGE_LOAD}` : entry.key} ${entry.pathname}${entry.search}`;
  try {
    const restored = JSON.parse(sessionStorage.getItem(RESTORED_KEY) ?? '[]') as string[];
    if (restored.includes(name)) return true;
    // The newest few are enough: an entry is only visited again by Back, Forward or a reload.
    sessionStorage.setItem(RESTORED_KEY, JSON.stringify([...restored, name].slice(-50)));
  } catch {
    // No storage: restore every time, as before.
  }
  return false;
}

/**
 * Scrolls a chapter to the paragraph a link names (?paragraph=n: "Continue reading", a search
 * passage), and marks it for a moment (data-located), so the eye finds it. Once per history
 * entry (`entry`: the router's location): coming back to the entry by Back or a reload
 * keeps the place the reader had reached (the router's scroll restoration), instead of moving
 * them back to the link's paragraph, which the position saver would then store over their
 * progress.
 */
export function useRestorePosition(
  content: HTMLElement | null,
  paragraph: number | null,
  { key, pathname, search }: Entry,
) {
  useEffect(() => {
    if (!content || paragraph === null) return;
    const block = content.children[paragraph];
    if (!block || restoredBefore({ key, pathname, search })) return;
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
  }, [content, paragraph, key, pathname, search]);
}
