import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ToastProvider,
  ToastRegion,
  toastsReducer,
  useToasts,
  type Toast,
} from '../src/components/toasts.tsx';
import { DEFAULT_TOAST_MS, TOAST_FADE_BEFORE_MS } from '../src/lib/constants.ts';

const toast = (id: string, extra: Partial<Toast> = {}): Toast => ({
  id,
  text: id,
  type: 'INFO',
  timeout: 5000,
  announce: true,
  ...extra,
});

describe('toastsReducer', () => {
  it('adds new toasts at the front and removes by id', () => {
    let state = toastsReducer([], { type: 'add', toast: toast('a') });
    state = toastsReducer(state, { type: 'add', toast: toast('b') });
    expect(state.map((t) => t.id)).toEqual(['b', 'a']);
    state = toastsReducer(state, { type: 'remove', id: 'b' });
    expect(state.map((t) => t.id)).toEqual(['a']);
    expect(toastsReducer(state, { type: 'remove', id: 'nope' })).toEqual(state);
  });
});

let pushToast: ReturnType<typeof useToasts>['push'];
function Pusher() {
  pushToast = useToasts().push;
  return null;
}

function renderToasts() {
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <>
          <Pusher />
          <ToastRegion />
        </>
      ),
    },
  ]);
  render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  );
  return router;
}

const texts = () =>
  screen.queryAllByTestId('toast').map((el) => el.querySelector('.toast-text')?.textContent);

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('queues the newest first', () => {
    renderToasts();
    act(() => {
      pushToast('first');
      pushToast('second');
    });
    expect(texts()).toEqual(['second', 'first']);
  });

  it('fades 500 ms before the default 5 s timeout, then goes away', () => {
    renderToasts();
    act(() => void pushToast('hello'));
    const item = screen.getByTestId('toast');
    act(() => vi.advanceTimersByTime(DEFAULT_TOAST_MS - TOAST_FADE_BEFORE_MS - 1));
    expect(item.className).not.toContain('is-fading');
    act(() => vi.advanceTimersByTime(1));
    expect(item.className).toContain('is-fading');
    expect(texts()).toEqual(['hello']);
    act(() => vi.advanceTimersByTime(TOAST_FADE_BEFORE_MS - 1));
    expect(texts()).toEqual(['hello']);
    act(() => vi.advanceTimersByTime(1));
    expect(texts()).toEqual([]);
  });

  it('keeps each toast on its own timeout', () => {
    renderToasts();
    act(() => {
      pushToast('long', { timeout: 10_000 });
      pushToast('short', { timeout: 2_500 });
    });
    act(() => vi.advanceTimersByTime(2_500));
    expect(texts()).toEqual(['long']);
    act(() => vi.advanceTimersByTime(7_500));
    expect(texts()).toEqual([]);
  });

  it('stands still while focus or the pointer is in it, and runs again in full after', () => {
    renderToasts();
    act(
      () =>
        void pushToast('New chapter', {
          type: 'CHAPTER_UPDATE',
          href: '/books/1/chapters/2',
          timeout: 2_000,
        }),
    );
    const item = screen.getByTestId('toast');
    act(() => screen.getByRole('link', { name: 'View.' }).focus());
    act(() => vi.advanceTimersByTime(10_000));
    expect(texts()).toEqual(['New chapter']);
    expect(item.className).not.toContain('is-fading');
    // Focus moving inside the toast keeps it held.
    act(() => screen.getByRole('button', { name: 'Close notification' }).focus());
    act(() => vi.advanceTimersByTime(10_000));
    expect(texts()).toEqual(['New chapter']);
    act(() => (document.activeElement as HTMLElement).blur());
    fireEvent.mouseEnter(item);
    act(() => vi.advanceTimersByTime(10_000));
    expect(texts()).toEqual(['New chapter']);
    fireEvent.mouseLeave(item);
    act(() => vi.advanceTimersByTime(1_999));
    expect(texts()).toEqual(['New chapter']);
    act(() => vi.advanceTimersByTime(1));
    expect(texts()).toEqual([]);
  });

  it('closes on the close button', () => {
    renderToasts();
    act(() => {
      pushToast('one');
      pushToast('two');
    });
    fireEvent.click(screen.getAllByRole('button', { name: 'Close notification' })[0]!);
    expect(texts()).toEqual(['one']);
  });

  it('shows a toast not to be announced as any other, outside the live region', () => {
    renderToasts();
    act(() => {
      pushToast('Ordinary');
      pushToast('Said by the form', { type: 'ERROR', announce: false, timeout: 2_000 });
    });
    const [quiet, ordinary] = screen.getAllByTestId('toast');
    expect(texts()).toEqual(['Said by the form', 'Ordinary']);
    // Shown as the others are: the same item, type, close button, in the messages' region.
    expect(quiet!.className).toBe('toast toast-error');
    expect(within(quiet!).getByRole('button', { name: 'Close notification' })).toBeTruthy();
    expect(quiet!.closest('section')?.getAttribute('aria-label')).toBe('Messages');
    // Only the ordinary one is in a live region; nothing in the quiet one is hidden.
    expect(ordinary!.closest('[aria-live]')?.getAttribute('aria-live')).toBe('polite');
    expect(quiet!.closest('[aria-live]')).toBeNull();
    expect(quiet!.closest('[aria-hidden]')).toBeNull();
    expect(quiet!.querySelector('[aria-live], [role="alert"], [role="status"]')).toBeNull();
    // It fades and goes on its timeout, and closes, as the others do.
    act(() => vi.advanceTimersByTime(2_000 - TOAST_FADE_BEFORE_MS));
    expect(quiet!.className).toContain('is-fading');
    act(() => vi.advanceTimersByTime(TOAST_FADE_BEFORE_MS));
    expect(texts()).toEqual(['Ordinary']);
    act(() => void pushToast('Said again', { announce: false }));
    fireEvent.click(within(screen.getAllByTestId('toast')[0]!).getByRole('button'));
    expect(texts()).toEqual(['Ordinary']);
  });

  it("shows a 'View.' link when the toast has one, and following it closes the toast", () => {
    const router = renderToasts();
    act(
      () => void pushToast('New chapter', { type: 'CHAPTER_UPDATE', href: '/books/1/chapters/2' }),
    );
    act(() => void pushToast('No link'));
    const links = screen.getAllByRole('link', { name: 'View.' });
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('href')).toBe('/books/1/chapters/2');
    fireEvent.click(links[0]!);
    expect(router.state.location.pathname).toBe('/books/1/chapters/2');
    expect(texts()).toEqual(['No link']);
  });
});
