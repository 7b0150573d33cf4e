import type { AuthorProfile } from '@inkwell/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../components/toasts.tsx';
import { FollowButton } from './components/FollowButton.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ANN: AuthorProfile = {
  id: 4,
  username: 'ann',
  first_name: 'Ann',
  last_name: '',
  biography: '',
  avatar: null,
  twitter_link: '',
  facebook_link: '',
  instagram_link: '',
};

/** Answers every call with `answer`; records each as "METHOD path". */
function mockApi(answer: (url: URL, init?: RequestInit) => Response) {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    return answer(url, init);
  });
  return calls;
}

function renderButton() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <FollowButton author={ANN} />
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('the Follow button of an author', () => {
  it('does not guess "not following" when the follow state could not be loaded; "Try again" asks again', async () => {
    let failing = true;
    const calls = mockApi(() =>
      failing ? json({ detail: 'Boom', code: 'internal' }, 500) : json(true),
    );
    renderButton();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load whether you follow ann. Try again');
    expect(screen.queryByRole('button', { name: 'Follow' })).toBeNull();

    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const unfollow = await screen.findByRole('button', { name: 'Unfollow' });
    expect(unfollow.getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls).toEqual(['GET /api/authors/4/is-following', 'GET /api/authors/4/is-following']);
  });

  it('offers Follow to a reader who does not follow the author', async () => {
    mockApi(() => json(false));
    renderButton();
    const follow = await screen.findByRole('button', { name: 'Follow' });
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
