import type { AuthorProfile } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { BusyButton } from '../../../components/BusyButton.tsx';
import { LoadError } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { FOLLOW_FAILURE_TOAST_MS } from '../../../lib/constants.ts';
import { isFollowingQuery, useToggleFollow } from '../api/authors.ts';

/** Follow or Unfollow another author; the state is fetched again after each action. */
export function FollowButton({ author }: { author: AuthorProfile }) {
  const { push } = useToasts();
  const following = useQuery(isFollowingQuery(author.id));
  const toggle = useToggleFollow(author.id, {
    onSuccess: (_, wasFollowing) =>
      push(wasFollowing ? `Unfollowing ${author.username}` : `Following ${author.username}`, {
        type: 'INFO',
      }),
    onError: (_, wasFollowing) =>
      wasFollowing
        ? push('Could not unfollow.', { type: 'ERROR' })
        : push(`Could not follow ${author.username}`, {
            type: 'ERROR',
            timeout: FOLLOW_FAILURE_TOAST_MS,
          }),
  });

  if (following.isPending) {
    return (
      <button type="button" className="button button-block" disabled>
        Loading...
      </button>
    );
  }
  // Without the answer, guessing "not following" would offer Follow to a reader who follows.
  if (following.isError && following.data === undefined) {
    return (
      <LoadError onRetry={() => void following.refetch()}>
        Could not load whether you follow {author.username}.
      </LoadError>
    );
  }
  const isFollowing = following.data === true;
  return (
    <BusyButton
      className={`button button-block${isFollowing ? ' button-secondary' : ''}`}
      aria-pressed={isFollowing}
      busy={toggle.isPending}
      onClick={() => toggle.mutate(isFollowing)}
    >
      {isFollowing ? 'Unfollow' : 'Follow'}
    </BusyButton>
  );
}
