import type { Revision, RevisionSummary } from '@inkwell/contract';
import { REVISIONS_LIST_LIMIT } from '@inkwell/contract/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshRevisions } from './api/revisions.ts';
import { HistoryPanel } from './components/HistoryPanel.tsx';

const versions: RevisionSummary[] = [
  { id: 9, created_at: '2026-11-25T15:00:00Z', words: 5, kind: 'autosave' },
  { id: 8, created_at: '2026-11-25T14:00:00Z', words: 4, kind: 'save' },
  { id: 3, created_at: '2026-11-20T12:00:00Z', words: 3, kind: 'publish' },
];

/** `count` versions of a chapter autosaved every hour, newest first (ids `count` down to 1). */
const hourly = (count: number): RevisionSummary[] =>
  Array.from({ length: count }, (_, i) => {
    const id = count - i;
    const created_at = new Date(Date.UTC(2026, 9, 1) + id * 3_600_000).toISOString();
    return { id, created_at, words: id, kind: 'autosave' };
  });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The list as the server pages it: the newest REVISIONS_LIST_LIMIT older than `before`. */
const listed = (stored: readonly RevisionSummary[], before: number | null) =>
  json({
    revisions: stored
      .filter((v) => before === null || v.id < before)
      .slice(0, REVISIONS_LIST_LIMIT),
  });

interface PanelApi {
  /** The chapter's versions, newest first: what a version's own request finds. */
  stored?: readonly RevisionSummary[];
  /** Answers a list request; by default pages through `stored`. */
  lists?(before: number | null): Response | Promise<Response>;
  onRestore?(revisionId: number): Promise<void>;
}

function renderPanel({
  stored = versions,
  lists = (before) => listed(stored, before),
  onRestore = vi.fn(async () => undefined),
}: PanelApi = {}) {
  // The `before` of every list request, in order (null for the newest page).
  const listRequests: (number | null)[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const one = url.pathname.match(/revisions\/(\d+)$/);
    if (one) {
      const summary = stored.find((v) => v.id === Number(one[1]))!;
      const version: Revision = {
        ...summary,
        title: 'Opening',
        content: '<p>The old boats sailed.</p>',
      };
      return json(version);
    }
    const param = url.searchParams.get('before');
    const before = param === null ? null : Number(param);
    listRequests.push(before);
    return lists(before);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <HistoryPanel
        chapterId={7}
        currentHtml={() => '<p>The new ships sailed.</p>'}
        onRestore={onRestore}
        onClose={() => undefined}
      />
    </QueryClientProvider>,
  );
  return { onRestore, client, listRequests };
}

const versionButtons = () => document.querySelectorAll<HTMLButtonElement>('button.history-version');
// Found by their text: a role query would work out the name of each of the hundreds of versions.
const olderButton = () => screen.queryByText(/^(Show|Loading) older versions/);
const showOlder = (user: ReturnType<typeof userEvent.setup>) =>
  user.click(screen.getByText('Show older versions'));

afterEach(() => vi.restoreAllMocks());

describe('History panel', () => {
  it('groups versions by day, moves along them with the arrows, and marks the diff', async () => {
    renderPanel();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'History' }));
    const groups = await screen.findAllByRole('group');
    expect(groups).toHaveLength(2);
    // A page shorter than the limit holds every version: nothing older to offer.
    expect(olderButton()).toBeNull();
    expect(within(groups[0]!).getAllByRole('button')).toHaveLength(2);
    const buttons = screen.getAllByRole('button', { pressed: false });
    expect(buttons[0]?.textContent).toContain('Autosave');
    expect(buttons[2]?.textContent).toContain('Published');

    const user = userEvent.setup();
    buttons[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(buttons[1]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(buttons[2]);
    await user.keyboard('{Enter}');
    expect(buttons[2]?.getAttribute('aria-pressed')).toBe('true');

    const diff = await screen.findByRole('region', { name: /Changes in Published/ });
    expect(diff.querySelector('ins')?.textContent).toContain('old boats');
    expect(diff.querySelector('del')?.textContent).toContain('new ships');
  });

  it('restores only after the confirmation', async () => {
    const { onRestore } = renderPanel();
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { pressed: false }))[1]!);
    await user.click(await screen.findByRole('button', { name: 'Restore this version' }));
    expect(onRestore).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(within(dialog).getByRole('button', { name: 'Restore', hidden: true }));
    await waitFor(() => expect(onRestore).toHaveBeenCalledWith(8));
  });
});

describe('History panel, older versions', () => {
  it('offers them after a full page, appends the next page, and they can be restored', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const stored = hourly(REVISIONS_LIST_LIMIT + 3);
    const { onRestore, listRequests } = renderPanel({
      stored,
      lists: async (before) => {
        if (before !== null) await held;
        return listed(stored, before);
      },
    });
    const user = userEvent.setup();

    expect((await screen.findByText('Show older versions')).tagName).toBe('BUTTON');
    await showOlder(user);
    expect(versionButtons()).toHaveLength(REVISIONS_LIST_LIMIT);
    // Before the oldest shown: the first page is ids 503 down to 4.
    expect(listRequests).toEqual([null, 4]);
    expect(olderButton()?.textContent).toBe('Loading older versions...');
    expect(olderButton()).toHaveProperty('disabled', true);

    answer();
    // The page came back short: nothing older remains, and the button goes.
    await waitFor(() => expect(versionButtons()).toHaveLength(stored.length));
    expect(olderButton()).toBeNull();
    const buttons = versionButtons();
    expect(buttons[0]?.textContent).toContain(`${stored.length} words`);
    expect(buttons[stored.length - 1]?.textContent).toContain('1 word');
    // Focus goes to the first older version, not to the page's start with the button gone.
    await waitFor(() => expect(document.activeElement).toBe(buttons[REVISIONS_LIST_LIMIT]));

    await user.keyboard('{End}{Enter}');
    await user.click(await screen.findByText('Restore this version'));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(within(dialog).getByRole('button', { name: 'Restore', hidden: true }));
    await waitFor(() => expect(onRestore).toHaveBeenCalledWith(1));
  });

  it('says when a page could not be loaded, and tries again from the button', async () => {
    const stored = hourly(2 * REVISIONS_LIST_LIMIT);
    let failures = 1;
    const { listRequests } = renderPanel({
      stored,
      lists: (before) =>
        before !== null && failures-- > 0
          ? json({ detail: 'Database unavailable' }, 503)
          : listed(stored, before),
    });
    const user = userEvent.setup();

    await screen.findByText('Show older versions');
    await showOlder(user);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Could not load older versions. Try again.',
    );
    // Only the older page failed: the versions shown stay, without the whole list's error.
    expect(screen.queryByText(/Could not load the versions/)).toBeNull();
    expect(versionButtons()).toHaveLength(REVISIONS_LIST_LIMIT);

    await showOlder(user);
    await waitFor(() => expect(versionButtons()).toHaveLength(stored.length));
    expect(screen.queryByRole('alert')).toBeNull();
    // A full page again: there may be more, until a page comes back short (here, empty).
    await showOlder(user);
    await waitFor(() => expect(olderButton()).toBeNull());
    expect(listRequests).toEqual([null, 501, 501, 1]);
    // None came: focus goes to the oldest shown.
    await waitFor(() => expect(document.activeElement).toBe(versionButtons()[stored.length - 1]));
  });

  it('asks for every page shown again after a restore, each before the oldest of the fresh one above', async () => {
    let stored = hourly(REVISIONS_LIST_LIMIT + 100);
    const { client, listRequests } = renderPanel({ lists: (before) => listed(stored, before) });
    const user = userEvent.setup();
    await screen.findByText('Show older versions');
    await showOlder(user);
    await waitFor(() => expect(versionButtons()).toHaveLength(stored.length));

    // The restore kept one more version: the newest page now ends one version later.
    stored = hourly(REVISIONS_LIST_LIMIT + 101);
    act(() => refreshRevisions(client, 7));
    await waitFor(() => expect(versionButtons()).toHaveLength(stored.length));
    expect(listRequests).toEqual([null, 101, null, 102]);
    const ids = [...versionButtons()].map((b) => b.textContent);
    expect(new Set(ids).size).toBe(stored.length);
  });
});
