import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/*
 * The keyboard's way through a list's "Load more" button (src/lib/loadMoreFocus.ts), the same for
 * every list that has one: each test says which list, these say what a reader should get.
 */

/** A page the test holds back: `held` settles once `release()` is called. */
export function holdPage() {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release: () => release() };
}

/** A list with a "Load more" button, its second page held until `release`. */
interface LoadMoreList {
  /** The button's name while it waits to be pressed: 'Load more', 'Load more books'... */
  label: string;
  /**
   * The element of the item named `name` that takes the keyboard's focus (its link, its
   * article); throws while the item is not shown.
   */
  item(name: string): HTMLElement;
  /** Lets the held page through. */
  release(): void;
}

/** Any "Load more" button, busy or not, whatever the list calls it. */
const LOAD_MORE = /Load more|Loading/i;

/** The button, once the item named `shown` is. */
async function loadMoreButton(list: LoadMoreList, shown: string) {
  await waitFor(() => list.item(shown));
  return screen.getByRole('button', { name: list.label });
}

/** Presses the focused `more` and waits until it says it is busy. */
async function pressAndWait(more: HTMLElement) {
  more.focus();
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(more.textContent).toBe('Loading...'));
}

/**
 * Three pages: the button stays busy and focused while the second loads, and asks nothing more
 * when pressed again; once the last page is in, it goes and the focus goes to `firstOfLast`.
 */
export async function expectLoadMoreKeepsFocus(
  list: LoadMoreList & {
    /** The last item of each page, in order. */
    lastOfPages: [string, string, string];
    /** The first item the last page brings. */
    firstOfLast: string;
    /** The pages asked for so far, by what tells them apart (offset, cursor). */
    asked(): unknown[];
    /** What `asked` gives for each page, in order. */
    pages: [unknown, unknown, unknown];
  },
) {
  const [first, second, last] = list.lastOfPages;
  const more = await loadMoreButton(list, first);
  await pressAndWait(more);
  // Busy, not disabled: it says so, keeps the focus and asks nothing more.
  expect(more.getAttribute('aria-disabled')).toBe('true');
  expect(more).toHaveProperty('disabled', false);
  await userEvent.keyboard('{Enter}');
  expect(document.activeElement).toBe(more);
  expect(list.asked()).toEqual(list.pages.slice(0, 2));

  list.release();
  await waitFor(() => list.item(second));
  // More pages to come: the button stays, and so does the focus.
  await waitFor(() => expect(more.textContent).toBe(list.label));
  expect(document.activeElement).toBe(more);

  await userEvent.keyboard('{Enter}');
  await waitFor(() => list.item(last));
  expect(screen.queryByRole('button', { name: LOAD_MORE })).toBeNull();
  // The first new item, not <body>.
  await waitFor(() => expect(document.activeElement).toBe(list.item(list.firstOfLast)));
  expect(list.asked()).toEqual(list.pages);
}

/**
 * Two pages: the reader moves the focus to `elsewhere` while the last one loads, and it stays
 * there when the button goes.
 */
export async function expectLoadMoreLeavesMovedFocus(
  list: LoadMoreList & {
    /** The last item of each page, in order. */
    lastOfPages: [string, string];
    /** The item the reader moves the focus to. */
    elsewhere: string;
  },
) {
  const [first, last] = list.lastOfPages;
  await pressAndWait(await loadMoreButton(list, first));
  const elsewhere = list.item(list.elsewhere);
  elsewhere.focus();

  list.release();
  await waitFor(() => list.item(last));
  expect(screen.queryByRole('button', { name: LOAD_MORE })).toBeNull();
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(document.activeElement).toBe(elsewhere);
}
