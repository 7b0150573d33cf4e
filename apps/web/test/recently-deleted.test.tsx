import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider, ToastRegion } from '../src/components/toasts.tsx';
import { RecentlyDeleted, TEXTS } from '../src/features/workspace/components/RecentlyDeleted.tsx';
import { createQueryClient } from '../src/lib/query.ts';

afterEach(() => vi.unstubAllGlobals());

const deleted = (id: number, title: string) => ({
  id,
  title,
  chapter_order: id,
  word_count: 10,
  is_published: false,
  deleted_at: '2026-11-29T10:00:00.000Z',
  purge_at: '2026-12-29T10:00:00.000Z',
});

describe('recently deleted chapters', () => {
  it('restore several at once, each with its own answer and its button held until then', async () => {
    const answers = new Map<string, () => void>();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = String(input);
        if (init?.method !== 'POST')
          return Response.json({ chapters: [deleted(1, 'Alpha'), deleted(2, 'Beta')] });
        // Each restore answers when the test says so.
        await new Promise<void>((resolve) => answers.set(url, resolve));
        return Response.json({ id: url.includes('/1/') ? 1 : 2 });
      }),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <RecentlyDeleted bookId={5} />
          <ToastRegion />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const alpha = await screen.findByRole('button', { name: 'Restore Alpha' });
    const beta = screen.getByRole('button', { name: 'Restore Beta' });
    await userEvent.click(alpha);
    await userEvent.click(beta);
    // Alpha's restore is still under way: its button stays held though Beta's was sent after.
    expect((alpha as HTMLButtonElement).disabled).toBe(true);
    expect((beta as HTMLButtonElement).disabled).toBe(true);
    for (const answer of answers.values()) answer();
    expect(await screen.findByText(TEXTS.restored('Alpha'))).toBeTruthy();
    expect(await screen.findByText(TEXTS.restored('Beta'))).toBeTruthy();
    // The rows restored go: the keyboard is back at the panel's heading, not lost to the page.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Recently deleted' }));
  });

  it('says when the deleted chapters could not be loaded, and asks again on Try again', async () => {
    let down = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        down
          ? Response.json({ detail: 'Boom', code: 'internal' }, { status: 400 })
          : Response.json({ chapters: [deleted(1, 'Alpha')] }),
      ),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ToastProvider>
          <RecentlyDeleted bookId={5} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load the deleted chapters. Try again',
    );
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Restore Alpha' })).toBeTruthy();
  });
});
