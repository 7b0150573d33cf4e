import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, Link, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { LeaveGuardProvider, useLeaveGuard, type Leaves } from '../src/components/LeaveGuard.tsx';

// jsdom has no modal dialogs: opening one just sets `open`, which is what the tests read.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

/** A page part that would lose `lost` if left (as `leaves` says). */
function Guard({ lost, leaves }: { lost: string | null; leaves?: Leaves }) {
  useLeaveGuard(lost, leaves);
  return null;
}

/** `routes` under the app's one leave guard, as the root layout mounts it. */
function renderRoutes(routes: RouteObject[], at: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <LeaveGuardProvider>
            <Outlet />
          </LeaveGuardProvider>
        ),
        children: [...routes, { path: '/elsewhere', element: <h1>Elsewhere</h1> }],
      },
    ],
    { initialEntries: [at] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** The editor's page with a guard, and a link to another page of the app. */
const renderGuard = (lost: string | null) =>
  renderRoutes(
    [
      {
        path: '/editor',
        element: (
          <>
            <Guard lost={lost} />
            <Link to="/elsewhere">Elsewhere</Link>
          </>
        ),
      },
    ],
    '/editor',
  );

/** Whether closing or reloading the tab would make the browser ask. */
const unloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

/** The sentences the open leave dialog lists. */
const sentences = async () =>
  [
    ...(await screen.findByRole('dialog', { name: 'Leave without saving?' })).querySelectorAll('p'),
  ].map((p) => p.textContent);

const NOTES = 'Your notes are lost.';
const ORDER = 'The new order is lost.';

/** The book workspace's rule: only a page outside /book leaves it. */
const leavesBook: Leaves = (_current, next) =>
  next.pathname !== '/book' && !next.pathname.startsWith('/book/');

describe('the leave guard', () => {
  it('asks, in its own words, before another page and before the tab closes; Stay keeps the page', async () => {
    const router = renderGuard(NOTES);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog.textContent).toContain(NOTES);
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

  it('asks once for two guards at once, listing what each would lose', async () => {
    const router = renderRoutes(
      [
        {
          path: '/book',
          element: (
            <>
              <Guard lost={ORDER} />
              <Guard lost={NOTES} />
              <Link to="/elsewhere">Elsewhere</Link>
            </>
          ),
        },
      ],
      '/book',
    );
    expect(unloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect((await sentences()).sort()).toEqual([NOTES, ORDER].sort());
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/book');

    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
  });

  it('asks only for the guards a navigation leaves, by their own rule', async () => {
    // The book's layout keeps an order for the whole book; its first page also has notes.
    const router = renderRoutes(
      [
        {
          path: '/book',
          element: (
            <>
              <Guard lost={ORDER} leaves={leavesBook} />
              <Link to="/book/second">Second</Link>
              <Link to="/book/third">Third</Link>
              <Link to="/elsewhere">Elsewhere</Link>
              <Outlet />
            </>
          ),
          children: [
            { path: 'first', element: <Guard lost={NOTES} /> },
            { path: 'second', element: <h1>Second</h1> },
            { path: 'third', element: <h1>Third</h1> },
          ],
        },
      ],
      '/book/first',
    );
    // Another page of the book leaves the notes, not the order.
    await userEvent.click(screen.getByRole('link', { name: 'Second' }));
    expect(await sentences()).toEqual([NOTES]);
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(await screen.findByRole('heading', { name: 'Second' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();

    // Within the book, nothing is left any more: no question.
    await userEvent.click(screen.getByRole('link', { name: 'Third' }));
    expect(await screen.findByRole('heading', { name: 'Third' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/book/third');
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
    expect(unloadAsks()).toBe(true);

    // Outside the book, the order is left.
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await sentences()).toEqual([ORDER]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/book/third');
  });

  it('forgets a guard once it is unmounted, or has nothing to lose any more', async () => {
    function Toggled({ children }: { children: ReactNode }) {
      const [shown, setShown] = useState(true);
      return (
        <>
          {shown && children}
          <button type="button" onClick={() => setShown(false)}>
            Done
          </button>
        </>
      );
    }
    function Saving() {
      const [saved, setSaved] = useState(false);
      return (
        <>
          <Guard lost={saved ? null : ORDER} />
          <button type="button" onClick={() => setSaved(true)}>
            Save
          </button>
        </>
      );
    }
    renderRoutes(
      [
        {
          path: '/book',
          element: (
            <>
              <Toggled>
                <Guard lost={NOTES} />
              </Toggled>
              <Saving />
              <Link to="/elsewhere">Elsewhere</Link>
            </>
          ),
        },
      ],
      '/book',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(unloadAsks()).toBe(true);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await sentences()).toEqual([ORDER]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(unloadAsks()).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
  });

  it('forgets the guards of a page left, and asks nothing on the next page', async () => {
    const router = renderRoutes(
      [
        {
          path: '/editor',
          element: (
            <>
              <Guard lost={NOTES} />
              <Link to="/next">Next</Link>
            </>
          ),
        },
        { path: '/next', element: <Link to="/elsewhere">Elsewhere</Link> },
      ],
      '/editor',
    );
    await userEvent.click(screen.getByRole('link', { name: 'Next' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Leave' }));
    expect(unloadAsks()).toBe(false);
    await userEvent.click(await screen.findByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('leaves by itself when what would be lost was saved while the question was open', async () => {
    function Saving() {
      const [lost, setLost] = useState<string | null>(NOTES);
      return (
        <>
          <Guard lost={lost} />
          <Link to="/elsewhere">Elsewhere</Link>
          {/* Outside the dialog's reach in a browser; here it stands for the save landing. */}
          <button type="button" onClick={() => setLost(null)}>
            Saved
          </button>
        </>
      );
    }
    const router = renderRoutes([{ path: '/editor', element: <Saving /> }], '/editor');
    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await sentences()).toEqual([NOTES]);
    screen.getByRole('button', { name: 'Saved', hidden: true }).click();
    expect(await screen.findByRole('heading', { name: 'Elsewhere' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/elsewhere');
  });
});
