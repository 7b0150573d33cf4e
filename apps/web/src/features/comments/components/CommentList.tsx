import type { CommentSort } from '@inkwell/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { BusyButton } from '../../../components/BusyButton.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { commentsQuery, useCommentWrites } from '../api/comments.ts';
import { CommentForm } from './CommentForm.tsx';
import { CommentItems, type CommentViewer } from './CommentItem.tsx';
import { useListFocus } from '../focus.ts';
import { Link, useLocation } from 'react-router';
import { useLoadMoreFocus } from '../../../lib/loadMoreFocus.ts';
import { paths } from '../../../lib/paths.ts';

interface CommentListProps {
  chapterId: number;
  /** One paragraph's thread, or null for the whole chapter's comments. */
  paragraph: number | null;
  sort: CommentSort;
  viewer: CommentViewer;
  /** Label of the box for a new comment. */
  formLabel: string;
  /** The heading over the list (focusable): focus goes there when the last comment is deleted. */
  heading: RefObject<HTMLElement | null>;
}

/**
 * A box for a new comment (or why there is none: closed, or signed out) and the top-level
 * comments, page by page with "Load more".
 */
export function CommentList({
  chapterId,
  paragraph,
  sort,
  viewer,
  formLabel,
  heading,
}: CommentListProps) {
  const writes = useCommentWrites(chapterId);
  const location = useLocation();
  const list = useInfiniteQuery(commentsQuery(chapterId, sort, paragraph));
  const comments = list.data?.pages.flatMap((page) => page.comments) ?? [];
  const focus = useListFocus(comments, heading);

  // After the last page "Load more" goes: its focus goes to the first comment that page brought,
  // as to a reply just posted.
  const more = useLoadMoreFocus(comments.length, (i) => {
    const first = comments[i];
    if (first) focus.added(first.id);
  });

  return (
    <>
      {viewer.locked ? (
        <Status kind="info">Comments are closed.</Status>
      ) : viewer.userId === null ? (
        <p className="muted">
          <Link to={paths.login(location.pathname + location.search)}>Sign in</Link> to comment.
        </p>
      ) : (
        <CommentForm
          label={formLabel}
          submitLabel="Post comment"
          onSubmit={(body) => writes.create.mutateAsync({ body, paragraph })}
        />
      )}
      {list.isPending ? (
        <Loading>Loading comments...</Loading>
      ) : list.isError ? (
        <LoadError onRetry={() => void list.refetch()}>Could not load the comments.</LoadError>
      ) : comments.length === 0 ? (
        <Status kind="empty">No comments yet.</Status>
      ) : (
        <CommentItems comments={comments} chapterId={chapterId} viewer={viewer} focus={focus} />
      )}
      {list.hasNextPage && (
        <BusyButton
          ref={more}
          className="button button-secondary comment-more"
          busy={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </BusyButton>
      )}
      {list.isFetchNextPageError && <Status kind="error">Could not load more comments.</Status>}
    </>
  );
}
