import type { Book } from '@inkwell/contract';
import { useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { BusyButton } from '../../../components/BusyButton.tsx';
import { isApiError } from '../../../lib/api.ts';
import { plural } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { useToggleBookFollow } from '../api/books.ts';

const FOLLOW_TEXTS = {
  follow: 'Follow',
  unfollow: 'Unfollow',
  own: 'This is your book: readers follow it, you write it.',
  failed: 'Could not follow this book. Try again.',
  unfollowFailed: 'Could not unfollow this book. Try again.',
};

/**
 * Follow / Unfollow a book, with its follower count. A toggle button (aria-pressed says whether
 * the reader follows); disabled, with the reason next to it, for a visitor and for the author.
 */
export function BookFollowButton({ book }: { book: Book }) {
  const { state } = useSession();
  const location = useLocation();
  const hintId = useId();
  const [error, setError] = useState<string | null>(null);
  const toggle = useToggleBookFollow(book.id, {
    onSuccess: () => setError(null),
    onError: (err, wasFollowing) =>
      setError(
        isApiError(err) && err.status === 403
          ? err.detail
          : wasFollowing
            ? FOLLOW_TEXTS.unfollowFailed
            : FOLLOW_TEXTS.failed,
      ),
  });

  const signedIn = state.status === 'in';
  const own = signedIn && state.account.id === book.author_id;
  const following = book.following === true;
  const disabled = !signedIn || own;
  const hint = !signedIn ? 'signed-out' : own ? 'own' : null;

  return (
    <div className="book-follow">
      <BusyButton
        className={`button${following ? ' button-secondary' : ''}`}
        aria-pressed={signedIn && !own ? following : undefined}
        aria-describedby={hint ? hintId : undefined}
        disabled={disabled}
        busy={toggle.isPending}
        onClick={() => toggle.mutate(following)}
      >
        {following ? FOLLOW_TEXTS.unfollow : FOLLOW_TEXTS.follow}
      </BusyButton>{' '}
      <span className="book-followers" aria-live="polite">
        {plural(book.followers ?? 0, 'follower', 'followers')}
      </span>
      {hint === 'signed-out' && (
        <p id={hintId} className="field-help">
          <Link to={paths.login(location.pathname)}>Sign in</Link> to follow this book.
        </p>
      )}
      {hint === 'own' && (
        <p id={hintId} className="field-help">
          {FOLLOW_TEXTS.own}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
