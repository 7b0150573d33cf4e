import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  NOT_SAVED_TEXT,
  ReaderSettingsPanel,
} from '../src/features/reader/components/ReaderSettingsPanel.tsx';
import { AppearanceProvider } from '../src/lib/appearance.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { SessionProvider } from '../src/lib/session.tsx';
import { accountFixture } from './fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

const SETTINGS = { font_size: 18, line_width: 'medium', theme: 'light' };

/** The settings panel of a signed-in reader; `saveAnswer` answers each PUT. */
function renderPanel(saveAnswer: (init: RequestInit) => Response | Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'PUT' ? saveAnswer(init) : Response.json(SETTINGS),
    ),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SessionProvider initial={{ status: 'in', token: 't', account: accountFixture(7, 'ann') }}>
        <AppearanceProvider>
          <ReaderSettingsPanel />
        </AppearanceProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

describe('reading settings', () => {
  it('say so when the account could not keep a change, instead of "Saved to your account"', async () => {
    renderPanel(() => Response.json({ detail: 'Down', code: 'internal' }, { status: 500 }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Reading settings/ }));
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_SAVED_TEXT);
    expect(screen.queryByText('Saved to your account.')).toBeNull();
  });

  it('say "Saved to your account" when it did', async () => {
    renderPanel(() => Response.json({ ...SETTINGS, theme: 'dark' }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Reading settings/ }));
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(await screen.findByText('Saved to your account.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keep the last of quick changes, on screen and on the server, however slowly saves answer', async () => {
    let stored = { ...SETTINGS };
    const seen: number[] = [];
    let first = true;
    renderPanel(async (init) => {
      const change = JSON.parse(String(init.body)) as { font_size: number };
      // The first save is slow: were the saves sent at once, the later ones would pass it.
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      seen.push(change.font_size);
      stored = { ...stored, ...change };
      return Response.json(stored);
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Reading settings/ }));
    const larger = await screen.findByRole('button', { name: 'Larger text' });
    const shown = () => screen.getByLabelText('Current font size').textContent;
    await waitFor(() => expect(shown()).toBe('18px'));
    for (let i = 0; i < 3; i++) await user.click(larger);
    expect(shown()).toBe('24px');
    await waitFor(() => expect(seen).toHaveLength(3));
    expect(seen).toEqual([20, 22, 24]);
    expect(stored.font_size).toBe(24);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shown()).toBe('24px');
  });
});
