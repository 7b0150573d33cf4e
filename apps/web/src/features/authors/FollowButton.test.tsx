import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiAnswer, authorFixture, stubApi } from '../../../test/fixtures.ts';
import { ToastProvider } from '../../components/toasts.tsx';
import { FollowButton } from './components/FollowButton.tsx';

const ANN = authorFixture(4, 'ann');

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
    const calls = stubApi(() =>
      failing ? apiAnswer({ detail: 'Boom', code: 'internal' }, 500) : apiAnswer(true),
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
    expect(calls).toEqual(['/api/authors/4/is-following', '/api/authors/4/is-following']);
  });

  it('offers Follow to a reader who does not follow the author', async () => {
    stubApi(() => apiAnswer(false));
    renderButton();
    const follow = await screen.findByRole('button', { name: 'Follow' });
    expect(follow.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
