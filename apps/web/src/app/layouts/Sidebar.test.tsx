import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from './RootLayout.tsx';
import { renderRouter } from '../../../test/render.tsx';

/** jsdom has no matchMedia: a screen whose width the test sets (narrow is up to 768px). */
let narrow = false;
const widthListeners = new Set<() => void>();
function setNarrow(next: boolean) {
  narrow = next;
  act(() => widthListeners.forEach((listener) => listener()));
}

beforeEach(() => {
  narrow = false;
  widthListeners.clear();
  vi.stubGlobal('matchMedia', (query: string) => ({
    media: query,
    get matches() {
      return query.includes('max-width: 768px') && narrow;
    },
    addEventListener: (_type: string, listener: () => void) => widthListeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => widthListeners.delete(listener),
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A page with things that take Escape themselves: a handled key, a field, an open dialog. */
function Page() {
  return (
    <>
      <h1>Page</h1>
      <button
        type="button"
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.preventDefault();
        }}
      >
        Handles Escape
      </button>
      <button type="button">Plain</button>
      <label>
        Tag
        <input type="text" />
      </label>
      <dialog open aria-label="A dialog">
        <button type="button">In the dialog</button>
      </dialog>
    </>
  );
}

function renderLayout() {
  const router = createMemoryRouter(
    [{ path: '/', element: <RootLayout />, children: [{ index: true, element: <Page /> }] }],
    { initialEntries: ['/'] },
  );
  renderRouter(router);
  const sidebar = screen.getByRole('complementary', { name: 'Sidebar', hidden: true });
  const header = screen.getByRole('banner');
  return {
    sidebar,
    header,
    /** The header's menu button (named "Open menu" or "Close menu" as the sidebar is). */
    menu: within(header).getAllByRole('button', { hidden: true })[0]!,
    close: within(sidebar).getByRole('button', { name: 'Close menu', hidden: true }),
    isOpen: () => sidebar.classList.contains('is-open'),
  };
}

/** Opens the sidebar from the keyboard: Tab past the skip link to the menu button, then Enter. */
async function openByKeyboard(user: ReturnType<typeof userEvent.setup>) {
  const layout = renderLayout();
  await screen.findByRole('heading', { name: 'Page' });
  await user.tab();
  await user.tab();
  expect(document.activeElement).toBe(layout.menu);
  expect(layout.menu.getAttribute('aria-label')).toBe('Open menu');
  await user.keyboard('{Enter}');
  expect(layout.isOpen()).toBe(true);
  expect(document.activeElement).toBe(layout.close);
  return layout;
}

describe('the sidebar and keyboard focus', () => {
  it('gives focus back to the menu button after Escape', async () => {
    const user = userEvent.setup();
    const { menu, sidebar, isOpen } = await openByKeyboard(user);
    await user.keyboard('{Escape}');
    expect(isOpen()).toBe(false);
    expect(sidebar.hasAttribute('inert')).toBe(true);
    expect(document.activeElement).toBe(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('gives focus back to the menu button after its Close button', async () => {
    const user = userEvent.setup();
    const { menu, isOpen } = await openByKeyboard(user);
    await user.keyboard('{Enter}');
    expect(isOpen()).toBe(false);
    expect(document.activeElement).toBe(menu);
  });

  it('gives focus back to the menu button after a click on the backdrop', async () => {
    const user = userEvent.setup();
    setNarrow(true);
    const { menu, isOpen } = await openByKeyboard(user);
    await user.click(document.querySelector('.sidebar-backdrop')!);
    expect(isOpen()).toBe(false);
    expect(document.activeElement).toBe(menu);
  });

  it('leaves open on an Escape that something else handled, or meant for a field or a dialog', async () => {
    const user = userEvent.setup();
    const { menu, isOpen } = await openByKeyboard(user);

    for (const name of ['Handles Escape', 'In the dialog']) {
      const button = screen.getByRole('button', { name });
      button.focus();
      await user.keyboard('{Escape}');
      expect(isOpen(), name).toBe(true);
      expect(document.activeElement).toBe(button);
    }
    screen.getByRole('textbox', { name: 'Tag' }).focus();
    await user.keyboard('{Escape}');
    expect(isOpen()).toBe(true);

    // An Escape on anything else on the page closes it, and leaves focus where the user put it.
    const plain = screen.getByRole('button', { name: 'Plain' });
    plain.focus();
    await user.keyboard('{Escape}');
    expect(isOpen()).toBe(false);
    expect(document.activeElement).toBe(plain);
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps the rest of the page out of reach while it covers it on a narrow screen', async () => {
    const user = userEvent.setup();
    setNarrow(true);
    const { header, sidebar, isOpen } = await openByKeyboard(user);
    const rest = [
      header,
      screen.getByRole('main'),
      screen.getByRole('contentinfo', { hidden: true }),
      screen.getByRole('link', { name: 'Skip to content', hidden: true }),
    ];
    for (const element of rest) expect(element.hasAttribute('inert')).toBe(true);
    expect(sidebar.hasAttribute('inert')).toBe(false);

    // Wider again, the sidebar sits beside the page, which is in reach.
    setNarrow(false);
    expect(isOpen()).toBe(true);
    for (const element of rest) expect(element.hasAttribute('inert')).toBe(false);

    setNarrow(true);
    for (const element of rest) expect(element.hasAttribute('inert')).toBe(true);
    await user.keyboard('{Escape}');
    for (const element of rest) expect(element.hasAttribute('inert')).toBe(false);
  });

  it('leaves the page in reach beside it on a wide screen', async () => {
    const user = userEvent.setup();
    const { header } = await openByKeyboard(user);
    expect(header.hasAttribute('inert')).toBe(false);
    expect(screen.getByRole('main').hasAttribute('inert')).toBe(false);
  });
});
