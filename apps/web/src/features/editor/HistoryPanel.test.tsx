import type { Revision, RevisionSummary } from '@inkwell/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryPanel } from './components/HistoryPanel.tsx';

const versions: RevisionSummary[] = [
  { id: 9, created_at: '2026-11-25T15:00:00Z', words: 5, kind: 'autosave' },
  { id: 8, created_at: '2026-11-25T14:00:00Z', words: 4, kind: 'save' },
  { id: 3, created_at: '2026-11-20T12:00:00Z', words: 3, kind: 'publish' },
];
const full = (id: number): Revision => ({
  ...versions.find((v) => v.id === id)!,
  title: 'Opening',
  content: '<p>The old boats sailed.</p>',
});

function renderPanel(onRestore = vi.fn(async () => undefined)) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const one = path.match(/revisions\/(\d+)$/);
    const body = one ? full(Number(one[1])) : { revisions: versions };
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
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
  return onRestore;
}

afterEach(() => vi.restoreAllMocks());

describe('History panel', () => {
  it('groups versions by day, moves along them with the arrows, and marks the diff', async () => {
    renderPanel();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'History' }));
    const groups = await screen.findAllByRole('group');
    expect(groups).toHaveLength(2);
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
    const onRestore = renderPanel();
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { pressed: false }))[1]!);
    await user.click(await screen.findByRole('button', { name: 'Restore this version' }));
    expect(onRestore).not.toHaveBeenCalled();
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.click(within(dialog).getByRole('button', { name: 'Restore', hidden: true }));
    await waitFor(() => expect(onRestore).toHaveBeenCalledWith(8));
  });
});
