import type { Book } from '@inkwell/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../src/components/toasts.tsx';
import { LoginPage } from '../src/features/accounts/components/LoginPage.tsx';
import { SignupPage } from '../src/features/accounts/components/SignupPage.tsx';
import { ALL_FIELDS, PASSWORDS_MUST_MATCH } from '../src/features/accounts/validation.ts';
import { ImportPage } from '../src/features/imports/components/ImportPage.tsx';
import { SettingsPage } from '../src/features/settings/components/SettingsPage.tsx';
import { BookDetails } from '../src/features/workspace/components/BookDetails.tsx';
import { TypedDeleteModal } from '../src/features/workspace/components/TypedDeleteModal.tsx';
import { AddBookForm } from '../src/features/workspace/components/WorkspacePage.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { SessionProvider, type SessionState } from '../src/lib/session.tsx';
import { description } from './fields.ts';
import { accountFixture, bookFixture } from './fixtures.ts';

/**
 * Issue 23 §2: a form's error clears as soon as the field that caused it changes, not at the next
 * submit. Each form is rendered whole, with the app's providers; `fetch` answers by URL.
 */

const ACCOUNT = accountFixture(7, 'ann');
const SIGNED_IN: SessionState = { status: 'in', token: 'token', account: ACCOUNT };
const SIGNED_OUT: SessionState = { status: 'out', token: null, account: null };

const refuse = (status: number, detail: string, field?: string) =>
  Response.json({ detail, code: status === 409 ? 'conflict' : 'validation', field }, { status });

function renderRoutes(
  routes: { path: string; element: ReactNode; children?: { index: true; element: ReactNode }[] }[],
  path: string,
  answer: (url: URL, init?: RequestInit) => Response | Promise<Response>,
  session: SessionState = SIGNED_OUT,
) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) =>
    answer(new URL(String(input), 'http://localhost'), init),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionProvider initial={session}>
        <ToastProvider>
          <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

const alertText = () => screen.queryByRole('alert')?.textContent ?? null;

/** The error `message` is tied to the field `label`: marked invalid, and described by it. */
function expectTiedTo(label: string, message: string) {
  const input = screen.getByLabelText(label);
  expect(input.getAttribute('aria-invalid')).toBe('true');
  expect(description(input)).toContain(message);
}

/**
 * After a failed submit, the error `message` as a screen reader gets it: the focus moved to the
 * field `label`, which is invalid and described by it; no alert says it a second time.
 */
async function expectHeardAt(label: string, message: string) {
  await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(label)));
  expectTiedTo(label, message);
  expect(screen.queryAllByRole('alert').map((alert) => alert.textContent)).not.toContain(message);
}

/** The error `message` is gone: the field `label` is neither invalid nor described by it, and its form no longer shows it. */
function expectGone(label: string, message: string) {
  const input = screen.getByLabelText(label);
  expect(input.getAttribute('aria-invalid')).toBeNull();
  expect(description(input)).not.toContain(message);
  expect(within(input.closest('form')!).queryByText(message)).toBeNull();
}

describe('signup', () => {
  const renderSignup = (answer: (url: URL) => Response = () => refuse(500, 'unused')) =>
    renderRoutes([{ path: '/', element: <SignupPage /> }], '/', answer);

  it('takes "Passwords must match!" away once the confirm field is corrected', async () => {
    renderSignup();
    await userEvent.type(screen.getByLabelText('Username'), 'ann');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'correct hors');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await expectHeardAt('Password', PASSWORDS_MUST_MATCH);
    expectTiedTo('Confirm password', PASSWORDS_MUST_MATCH);
    await userEvent.type(screen.getByLabelText('Confirm password'), 'e');
    expectGone('Password', PASSWORDS_MUST_MATCH);
    expectGone('Confirm password', PASSWORDS_MUST_MATCH);
  });

  it('takes "fill out all fields" away when a missing field is filled, not another', async () => {
    renderSignup();
    await userEvent.type(screen.getByLabelText('Username'), 'ann');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await expectHeardAt('Password', ALL_FIELDS);
    expectTiedTo('Confirm password', ALL_FIELDS);
    await userEvent.type(screen.getByLabelText('Username'), 'e');
    expectTiedTo('Password', ALL_FIELDS);
    expectTiedTo('Confirm password', ALL_FIELDS);
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    expectGone('Password', ALL_FIELDS);
    expectGone('Confirm password', ALL_FIELDS);
  });

  it("takes the server's 'username is taken' away when the username changes", async () => {
    renderSignup((url) =>
      url.pathname === '/api/authors'
        ? refuse(409, 'That username is taken', 'username')
        : refuse(404, ''),
    );
    await userEvent.type(screen.getByLabelText('Username'), 'ann');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.type(screen.getByLabelText('Confirm password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await expectHeardAt('Username', 'That username is taken');
    await userEvent.type(screen.getByLabelText('Password'), '!');
    expectTiedTo('Username', 'That username is taken');
    await userEvent.type(screen.getByLabelText('Username'), 'a');
    expectGone('Username', 'That username is taken');
  });
});

/** The login page, whose every attempt the server refuses with `status` and `detail`; one attempt made. */
async function refusedLogin(status: number, detail: string, password: string) {
  renderRoutes([{ path: '/', element: <LoginPage /> }], '/', () => refuse(status, detail));
  await userEvent.type(screen.getByLabelText('Username'), 'ann');
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('login', () => {
  it('takes "Incorrect username or password." away as soon as either field changes', async () => {
    await refusedLogin(401, 'Incorrect username or password', 'wrong');
    await expectHeardAt('Username', 'Incorrect username or password.');
    // Both fields are described by it: a screen reader on either hears why.
    for (const label of ['Username', 'Password'])
      expect(screen.getByLabelText(label).getAttribute('aria-describedby')).toBe('login-error');
    await userEvent.type(screen.getByLabelText('Password'), 'er');
    expectGone('Username', 'Incorrect username or password.');
    expectGone('Password', 'Incorrect username or password.');
  });

  it('says the account is suspended, as the server does, not that the password is wrong', async () => {
    await refusedLogin(403, 'This account is suspended', 'right-password');
    await waitFor(() => expect(alertText()).toBe('This account is suspended'));
  });
});

const NO_SAVED_FILTERS = {
  exclude_tags: [],
  exclude_warnings: [],
  exclude_ratings: [],
  muted_authors: [],
};

describe('settings', () => {
  const USERNAME_RULE = 'username: username must be 3-30 characters: letters, digits, _, - or .';

  it('takes a field error away when that field changes, not when another does', async () => {
    renderRoutes(
      [{ path: '/my/settings/:authorId', element: <SettingsPage /> }],
      '/my/settings/7',
      (url) =>
        url.pathname === '/api/authors/7'
          ? refuse(400, USERNAME_RULE, 'username')
          : // My filters (issue 21), the block and mute lists (issue 19) load beside it, empty.
            url.pathname === '/api/my/filters'
            ? Response.json(NO_SAVED_FILTERS)
            : url.pathname.startsWith('/api/my/')
              ? Response.json({ users: [] })
              : refuse(404, ''),
      SIGNED_IN,
    );
    await userEvent.type(screen.getByLabelText('Username'), '!');
    await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await expectHeardAt('Username', USERNAME_RULE);
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    expectTiedTo('Username', USERNAME_RULE);
    await userEvent.type(screen.getByLabelText('Username'), '{Backspace}');
    expectGone('Username', USERNAME_RULE);
  });
});

describe('the profile form, once saved', () => {
  it('empties the password fields, so the next Update Profile does not change it again', async () => {
    const puts: unknown[] = [];
    renderRoutes(
      [{ path: '/my/settings/:authorId', element: <SettingsPage /> }],
      '/my/settings/7',
      (url, init) => {
        if (url.pathname === '/api/authors/7' && init?.method === 'PUT') {
          puts.push(JSON.parse(String(init.body)));
          return Response.json(ACCOUNT);
        }
        if (url.pathname === '/token')
          return Response.json({ access_token: 'token', token_type: 'bearer', account: ACCOUNT });
        if (url.pathname === '/api/my/filters') return Response.json(NO_SAVED_FILTERS);
        if (url.pathname.startsWith('/api/my/')) return Response.json({ users: [] });
        return refuse(404, '');
      },
      SIGNED_IN,
    );
    await userEvent.type(screen.getByLabelText('Password'), 'a-new-password-1');
    await userEvent.type(screen.getByLabelText('Current password'), 'the-old-one');
    await userEvent.click(screen.getByRole('button', { name: 'Update Profile' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveProperty('value', ''));
    expect(screen.getByLabelText('Current password')).toHaveProperty('value', '');
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ password: 'a-new-password-1' });
  });
});

describe('book details', () => {
  const renderDetails = (answer: (url: URL) => Response) => {
    const book: Book = bookFixture(3, { title: 'Emma', is_published: false });
    renderRoutes(
      [
        {
          path: '/',
          element: <Outlet context={{ book, requestChapterDelete: () => {} }} />,
          children: [{ index: true, element: <BookDetails /> }],
        },
      ],
      '/',
      (url) => {
        if (url.pathname === '/api/genres') return Response.json({ genres: [] });
        if (url.pathname === '/api/books/3/genres') return Response.json({ genres: [] });
        if (url.pathname === '/api/books/3/deleted-chapters')
          return Response.json({ chapters: [] });
        return answer(url);
      },
      SIGNED_IN,
    );
  };

  it('says "The title cannot be empty." at the title, and takes it away once a title is typed', async () => {
    renderDetails(() => refuse(404, ''));
    const title = screen.getByLabelText('Title');
    await userEvent.clear(title);
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await expectHeardAt('Title', 'The title cannot be empty.');
    await userEvent.type(screen.getByLabelText('Summary'), 'A summary');
    expectTiedTo('Title', 'The title cannot be empty.');
    await userEvent.type(title, 'E');
    expectGone('Title', 'The title cannot be empty.');
  });

  it('says a taken title at the title field the server names, and takes it away once the title changes', async () => {
    renderDetails(() => refuse(409, 'You already have a book with this title', 'title'));
    await userEvent.type(screen.getByLabelText('Title'), ' II');
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await expectHeardAt('Title', 'You already have a book with this title');
    await userEvent.type(screen.getByLabelText('Summary'), 'A summary');
    expectTiedTo('Title', 'You already have a book with this title');
    await userEvent.type(screen.getByLabelText('Title'), 'I');
    expectGone('Title', 'You already have a book with this title');
  });

  it('marks the field a 400 names (a refused tag), and says an error of no field as an alert', async () => {
    const detail = 'tags.0: a tag is 1-50 characters';
    let answer = () => refuse(400, detail, 'tags');
    renderDetails(() => answer());
    await userEvent.type(screen.getByLabelText('Summary'), 'A summary');
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await expectHeardAt('Tags', detail);
    expect(screen.getByLabelText('Summary').getAttribute('aria-invalid')).toBeNull();

    answer = () => refuse(400, 'Something about the whole book');
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(alertText()).toBe('Something about the whole book'));
    expect(screen.getByLabelText('Tags').getAttribute('aria-invalid')).toBeNull();
  });
});

describe('new book', () => {
  it('takes "You already have a book with this title." away once a new title is typed', async () => {
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AddBookForm titles={['Emma']} />
      </QueryClientProvider>,
    );
    const input = screen.getByLabelText('New book title');
    await userEvent.type(input, 'emma');
    await userEvent.click(screen.getByRole('button', { name: 'Add Book' }));
    expect(screen.getByRole('status').textContent).toBe('You already have a book with this title.');
    await userEvent.type(input, 'P');
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('delete modal', () => {
  it('takes "could not be deleted" away once the confirmation text changes', async () => {
    // jsdom has no showModal: open the <dialog> as a browser would.
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    const onConfirm = vi.fn().mockRejectedValue(new Error('offline'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <TypedDeleteModal
        target={{ kind: 'book', title: 'Emma' }}
        onClose={() => {}}
        onConfirm={onConfirm}
      />,
    );
    const field = screen.getByLabelText('Type the book title to confirm');
    await userEvent.type(field, 'Emma');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(alertText()).toBe('The book could not be deleted. Please try again.'),
    );
    await userEvent.type(field, '{Backspace}');
    expect(alertText()).toBeNull();
    delete (HTMLDialogElement.prototype as Partial<HTMLDialogElement>).showModal;
  });

  it('stays open while the delete is on its way, so a failure can still be said', async () => {
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    let fail: (error: Error) => void = () => {};
    const onConfirm = vi.fn(() => new Promise<void>((_resolve, reject) => (fail = reject)));
    const onClose = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <TypedDeleteModal
        target={{ kind: 'book', title: 'Emma' }}
        onClose={onClose}
        onConfirm={onConfirm}
      />,
    );
    await userEvent.type(screen.getByLabelText('Type the book title to confirm'), 'Emma');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    fail(new Error('offline'));
    await waitFor(() =>
      expect(alertText()).toBe('The book could not be deleted. Please try again.'),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    delete (HTMLDialogElement.prototype as Partial<HTMLDialogElement>).showModal;
  });
});

describe('import', () => {
  it("takes the server's refusal away once another file is chosen", async () => {
    renderRoutes(
      [{ path: '/', element: <ImportPage /> }],
      '/',
      (url, init) =>
        url.pathname === '/api/imports/preview' && init?.method === 'POST'
          ? refuse(413, 'The file is too large: at most 20 MB')
          : Response.json({ imports: [] }),
      SIGNED_IN,
    );
    const picker = screen.getByLabelText('Story file');
    await userEvent.upload(picker, new File(['x'], 'huge.txt', { type: 'text/plain' }));
    // jsdom cannot tell a `required` file input has a file set by userEvent: submit directly.
    fireEvent.submit(screen.getByRole('button', { name: 'Preview chapters' }).closest('form')!);
    await waitFor(() => expect(alertText()).toBe('The file is too large: at most 20 MB'));
    await userEvent.upload(picker, new File(['# Story'], 'story.md', { type: 'text/markdown' }));
    expect(alertText()).toBeNull();
  });

  it('drops a preview that arrives after another file was chosen: it describes the first file', async () => {
    let answer!: (res: Response) => void;
    renderRoutes(
      [{ path: '/', element: <ImportPage /> }],
      '/',
      (url, init) =>
        url.pathname === '/api/imports/preview' && init?.method === 'POST'
          ? new Promise<Response>((resolve) => (answer = resolve))
          : Response.json({ imports: [] }),
      SIGNED_IN,
    );
    const picker = screen.getByLabelText('Story file');
    await userEvent.upload(picker, new File(['A'], 'first.txt', { type: 'text/plain' }));
    fireEvent.submit(screen.getByRole('button', { name: 'Preview chapters' }).closest('form')!);
    await waitFor(() => expect(answer).toBeDefined());
    await userEvent.upload(picker, new File(['B'], 'second.txt', { type: 'text/plain' }));
    answer(
      Response.json({
        filename: 'first.txt',
        format: 'text',
        keep_front_matter: false,
        title: 'First',
        source_title: null,
        source_author: null,
        chapters: [
          { index: 0, title: 'One', words: 1, kind: 'chapter', included: true, opening: 'A' },
        ],
        warnings: [],
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Preview chapters' })).toHaveProperty(
        'disabled',
        false,
      ),
    );
    expect(screen.queryByRole('heading', { name: /Chapters of/ })).toBeNull();
  });
});
