import type { Comment } from '@inkwell/contract';
import { useEffect, useRef, useState, type RefObject } from 'react';

/*
 * Where the keyboard's focus goes when a comment's parts come and go: a button, a box or a dialog
 * holding it leaves the page, and focus would fall to <body>.
 */

/**
 * For what a button opens in place (an edit, a reply box) or over the page (a dialog): once
 * `open` turns false, focus goes back to the button (the ref given back). Edit is hidden while
 * editing, and a modal dialog leaves the page inert until it is gone: so after the render.
 */
export function useFocusBack<T extends HTMLElement>(open: boolean): RefObject<T | null> {
  const button = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return button;
}

/** The comment focus is to go to, and when: once the list shown is `ready`. */
interface Wanted {
  ready(shown: readonly Comment[]): boolean;
  /** The first of these still in the list takes it; none: the list's holder. */
  ids: (number | undefined)[];
}

/**
 * Focus in one list of comments (a chapter's or a paragraph's, or a thread's replies), moved once
 * the list shows the change. A reply just posted takes it. A deleted comment's Delete button goes
 * with it, so the rule is: the comment itself if it stays ("This comment was deleted.", above its
 * replies), else the next comment of the list, else the previous one, else `holder` (the list's
 * heading, or the comment replied to). `list` goes on the list's <ul>: a comment may be shown in
 * two lists at once (the chapter's and its paragraph's).
 */
export function useListFocus(
  comments: readonly Comment[] | undefined,
  holder: RefObject<HTMLElement | null>,
) {
  const list = useRef<HTMLUListElement>(null);
  const [wanted, setWanted] = useState<Wanted | null>(null);
  useEffect(() => {
    if (!wanted || !comments || !wanted.ready(comments)) return;
    // The reader moved on, away from the list and its holder, while the list caught up (a slow
    // or failed answer, shown only by a later refetch): focus is theirs, not taken back.
    const at = document.activeElement;
    const moved = at && at !== document.body && !list.current?.contains(at);
    if (moved && !holder.current?.contains(at)) return setWanted(null);
    const id = wanted.ids.find((id) => comments.some((c) => c.id === id));
    const article =
      id === undefined
        ? null
        : list.current?.querySelector<HTMLElement>(`:scope > [id="comment-${id}"] > article`);
    (article ?? holder.current)?.focus();
    setWanted(null);
  }, [wanted, comments, holder]);

  const added = (id: number) =>
    setWanted({ ready: (shown) => shown.some((c) => c.id === id), ids: [id] });
  // The neighbours are those of the list this render shows: the one its Delete was pressed in.
  const deleted = (id: number) => {
    const at = comments?.findIndex((c) => c.id === id) ?? -1;
    setWanted({
      ready: (shown) => !shown.some((c) => c.id === id && !c.deleted),
      ids: at < 0 ? [] : [id, comments?.[at + 1]?.id, comments?.[at - 1]?.id],
    });
  };
  return { list, added, deleted };
}
