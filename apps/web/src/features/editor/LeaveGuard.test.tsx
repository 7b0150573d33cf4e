import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { LeaveGuard } from './components/LeaveGuard.tsx';

// jsdom has no modal dialogs: opening one just sets `open`, which is what the tests read.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

/** The editor's page with the guard, and a link to another page of the app. */
function renderGuard(lost: string | null) {
  const router = createMemoryRouter(
    [
      {
        path: '/editor',
        element: (
          <>
            <LeaveGuard lost={lost} />
            <Link to="/elsewhere">Elsewhere</Link>
          </>
        ),
      },
      { path: '/elsewhere', element: <h1>Elsewhere</h1> },
    ],
    { initialEntries: ['/editor'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** Whether closing or reloading the tab would make the browser ask. */
const unloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

describe('LeaveGuard', () => {
  it('asks, in its own words, before another page and before the tab closes; Stay keeps the page', async () => {
    const router = renderGuard('Your notes are lost.');
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain('Your notes are lost.');
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/editor');
    expect(unloadAsks()).toBe(true);

    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
  });

  it('lets the author leave freely when nothing would be lost', async () => {
    renderGuard(null);
    expect(unloadAsks()).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
