import { useCallback, useLayoutEffect, useRef, type RefCallback, type RefObject } from 'react';

/*
 * A list's "Load more" button goes once the last page is in. A focused element that leaves the
 * page drops the keyboard's focus to <body>: the next Tab starts again from the top of the page,
 * and a screen reader says nothing of the items that just came.
 */

/**
 * Hands the keyboard's focus on when a list's "Load more" button goes: to the first item the last
 * page brought (the last item shown if it brought none). Only if the button had the focus as it
 * went: a reader who moved on (into the list, or anywhere else) keeps it where they put it.
 *
 * `count` is how many items the list shows; `focusItem(index)` focuses one of them, the way that
 * list's items take focus. The ref given back goes on the button.
 */
export function useLoadMoreFocus(
  count: number,
  focusItem: (index: number) => void,
): RefCallback<HTMLButtonElement> {
  // How many items the last render showed; and, once the button left with the focus, how many
  // there were while it was there (the items from there on are the last page's).
  const shown = useRef(count);
  const leftAt = useRef<number | null>(null);

  // After every render, once the page shows it: the button's ref has been let go by then.
  useLayoutEffect(() => {
    const before = leftAt.current;
    leftAt.current = null;
    shown.current = count;
    if (before === null) return;
    const index = count > before ? before : count - 1;
    if (index >= 0) focusItem(index);
  });

  return useCallback((button: HTMLButtonElement | null) => {
    if (!button) return;
    // React (and Preact, which the bundle runs on) lets go of a ref before it takes the element
    // out of the page: the focus, if the button had it, is still there to see.
    return () => {
      if (document.activeElement === button) leftAt.current = shown.current;
    };
  }, []);
}

/**
 * Focuses a list item a page brought: its first link (the item itself, made focusable, when it has
 * none). A link, not the item with tabIndex -1: every screen reader announces a focused link the
 * same way, "link" and its name (the item's title), and Tab goes on from it into the item; a
 * focused <li> has no name of its own, and readers differ on what they say for it, from all of its
 * text to only "list item".
 */
export function focusListItem(item: Element | null | undefined) {
  if (!(item instanceof HTMLElement)) return;
  const link = item.querySelector<HTMLElement>(
    'a[href]:not([tabindex="-1"]):not([aria-hidden="true"])',
  );
  if (link) return link.focus();
  item.tabIndex = -1;
  item.focus();
}

/**
 * `useLoadMoreFocus` for a plain list whose children are the items: the ref `list` goes on the
 * list, `more` on its button, and an item takes the focus as `focusListItem` gives it.
 */
export function useListLoadMoreFocus(count: number): {
  list: RefObject<HTMLUListElement | null>;
  more: RefCallback<HTMLButtonElement>;
} {
  const list = useRef<HTMLUListElement>(null);
  const more = useLoadMoreFocus(count, (i) => focusListItem(list.current?.children[i]));
  return { list, more };
}
