import type { Comment } from '@inkwell/contract';
import { REPORT_REASON_MAX_LENGTH } from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { SafeHtml } from '../../../components/SafeHtml.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { formatDateTime, plural } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { displayName } from '../../../lib/titles.ts';
import { commentErrorText, repliesQuery, useCommentWrites } from '../api/comments.ts';
import { bodyToText } from '../body.ts';
import { useFocusBack, useListFocus } from '../focus.ts';
import { CommentForm } from './CommentForm.tsx';

/** Who is looking and what they may do: given once by the section, read by every comment. */
export interface CommentViewer {
  /** The signed-in reader's id, or null for a visitor. */
  userId: number | null;
  /** The viewer wrote the book: they may delete any comment on it. */
  isBookAuthor: boolean;
  /** New comments and replies are refused (the chapter or the book is locked). */
  locked: boolean;
}

interface CommentItemProps {
  comment: Comment;
  chapterId: number;
  viewer: CommentViewer;
  /** Told once the comment is deleted, to move focus on (useListFocus of its list). */
  onDeleted(id: number): void;
}

/**
 * A list of comments (a chapter's or a paragraph's, or a thread's replies), with its focus rule
 * (useListFocus): the list it watches, and the deletes it hears of.
 */
export function CommentItems({
  comments,
  chapterId,
  viewer,
  focus,
}: {
  comments: readonly Comment[];
  chapterId: number;
  viewer: CommentViewer;
  focus: Pick<ReturnType<typeof useListFocus>, 'list' | 'deleted'>;
}) {
  return (
    <ul className="comment-list" ref={focus.list}>
      {comments.map((comment) => (
        <CommentItem
          key={comment.id}
          comment={comment}
          chapterId={chapterId}
          viewer={viewer}
          onDeleted={focus.deleted}
        />
      ))}
    </ul>
  );
}

/** One comment with its actions and, for a top-level one, its replies and a reply box. */
export function CommentItem({ comment, chapterId, viewer, onDeleted }: CommentItemProps) {
  const writes = useCommentWrites(chapterId);
  const { push } = useToasts();
  const [editing, setEditing] = useState(false);
  const [replying, setReplying] = useState(false);
  const [showReplies, setShowReplies] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reporting, setReporting] = useState(false);
  const topLevel = comment.parent_id === null;
  const replies = useQuery({
    ...repliesQuery(chapterId, comment.id),
    enabled: topLevel && showReplies,
  });
  const article = useRef<HTMLElement>(null);
  const editButton = useFocusBack<HTMLButtonElement>(editing);
  const replyButton = useFocusBack<HTMLButtonElement>(replying);
  const reportButton = useFocusBack<HTMLButtonElement>(reporting);
  // Declared after useFocusBack: a reply just posted takes focus from the Reply button.
  const replyFocus = useListFocus(replies.data, article);

  const own = viewer.userId !== null && comment.user?.id === viewer.userId;
  const canDelete = !comment.deleted && (own || viewer.isBookAuthor);
  const signedIn = viewer.userId !== null;
  const name = comment.user ? displayName(comment.user) : '';

  const like = () =>
    writes.like.mutate(
      { id: comment.id, liked: !comment.liked },
      {
        onError: (e) => push(commentErrorText(e, 'Could not like the comment.'), { type: 'ERROR' }),
      },
    );
  const remove = () =>
    writes.remove.mutate(comment.id, {
      onSuccess: () => {
        setConfirmDelete(false);
        push('Comment deleted.', { type: 'SUCCESS' });
        onDeleted(comment.id);
      },
      onError: (e) => push(commentErrorText(e, 'Could not delete the comment.'), { type: 'ERROR' }),
    });

  return (
    <li className="comment" id={`comment-${comment.id}`}>
      <article
        ref={article}
        tabIndex={-1}
        aria-label={comment.deleted ? 'Deleted comment' : `Comment by ${name}`}
      >
        {comment.deleted ? (
          <p className="comment-deleted muted">This comment was deleted.</p>
        ) : (
          <>
            <header className="comment-head">
              {comment.user && (
                <Link to={paths.author(comment.user.username)} className="comment-author">
                  {name}
                </Link>
              )}
              {comment.by_author && <span className="comment-badge">Author</span>}
              <time dateTime={comment.created_at} className="muted">
                {formatDateTime(comment.created_at)}
              </time>
              {comment.edited_at && (
                <span className="muted" title={formatDateTime(comment.edited_at)}>
                  (edited)
                </span>
              )}
            </header>
            {editing ? (
              <CommentForm
                label="Edit your comment"
                submitLabel="Save"
                initial={bodyToText(comment.body)}
                autoFocus
                onSubmit={async (body) => {
                  await writes.update.mutateAsync({ id: comment.id, body });
                  setEditing(false);
                }}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <SafeHtml allow="comment" className="comment-body" html={comment.body} />
            )}
            <div className="comment-actions">
              <button
                type="button"
                className="button button-small button-quiet comment-like"
                aria-pressed={comment.liked}
                disabled={!signedIn || writes.like.isPending}
                title={signedIn ? undefined : 'Sign in to like comments'}
                onClick={like}
              >
                {comment.liked ? 'Liked' : 'Like'}{' '}
                <span aria-label={plural(comment.likes, 'like', 'likes')}>{comment.likes}</span>
              </button>
              {topLevel && signedIn && !viewer.locked && (
                <button
                  ref={replyButton}
                  type="button"
                  className="button button-small button-quiet"
                  aria-expanded={replying}
                  onClick={() => setReplying((r) => !r)}
                >
                  Reply
                </button>
              )}
              {own && !editing && (
                <button
                  ref={editButton}
                  type="button"
                  className="button button-small button-quiet"
                  onClick={() => setEditing(true)}
                >
                  Edit
                </button>
              )}
              {canDelete && (
                <button
                  type="button"
                  className="button button-small button-quiet"
                  onClick={() => setConfirmDelete(true)}
                >
                  Delete
                </button>
              )}
              {signedIn && !own && (
                <button
                  ref={reportButton}
                  type="button"
                  className="button button-small button-quiet"
                  onClick={() => setReporting(true)}
                >
                  Report
                </button>
              )}
            </div>
          </>
        )}
      </article>
      {topLevel && comment.reply_count > 0 && (
        <button
          type="button"
          className="button button-small button-quiet comment-replies-toggle"
          aria-expanded={showReplies}
          onClick={() => setShowReplies((s) => !s)}
        >
          {showReplies ? 'Hide replies' : plural(comment.reply_count, 'reply', 'replies')}
        </button>
      )}
      {topLevel && showReplies && (
        <div className="comment-replies">
          {replies.isPending ? (
            <Loading>Loading replies...</Loading>
          ) : replies.isError ? (
            <Status kind="error">Could not load the replies.</Status>
          ) : replies.data.length === 0 ? (
            <Status kind="empty">No replies.</Status>
          ) : (
            <CommentItems
              comments={replies.data}
              chapterId={chapterId}
              viewer={viewer}
              focus={replyFocus}
            />
          )}
        </div>
      )}
      {replying && (
        <CommentForm
          label={`Reply to ${name || 'this thread'}`}
          submitLabel="Reply"
          autoFocus
          onSubmit={async (body) => {
            const reply = await writes.create.mutateAsync({ body, parent_id: comment.id });
            setReplying(false);
            setShowReplies(true);
            replyFocus.added(reply.id);
          }}
          onCancel={() => setReplying(false)}
        />
      )}
      <Modal
        open={confirmDelete}
        title="Delete this comment?"
        onClose={() => setConfirmDelete(false)}
      >
        <p>
          {comment.reply_count > 0
            ? 'Its replies stay; the comment shows as deleted.'
            : 'It will be gone for everyone.'}
        </p>
        <div className="modal-actions">
          <button
            type="button"
            className="button button-danger"
            disabled={writes.remove.isPending}
            onClick={remove}
          >
            Delete
          </button>
          <button
            type="button"
            className="button button-quiet"
            onClick={() => setConfirmDelete(false)}
          >
            Cancel
          </button>
        </div>
      </Modal>
      {reporting && (
        <ReportDialog
          onClose={() => setReporting(false)}
          onSubmit={async (reason) => {
            await writes.report.mutateAsync({ id: comment.id, reason });
            setReporting(false);
            push('Thank you: the operators will look at it.', { type: 'SUCCESS' });
          }}
        />
      )}
    </li>
  );
}

/** The reason for a report, asked in a dialog; a failure stays in it and says why. */
function ReportDialog({
  onClose,
  onSubmit,
}: {
  onClose(): void;
  onSubmit(reason: string): Promise<void>;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return;
    setPending(true);
    setError(null);
    try {
      await onSubmit(reason.trim());
    } catch (err) {
      setError(commentErrorText(err, 'Could not send the report.'));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal open title="Report this comment" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <div className="field">
          <label htmlFor={id}>Why should the operators look at it?</label>
          <textarea
            id={id}
            value={reason}
            rows={3}
            required
            maxLength={REPORT_REASON_MAX_LENGTH}
            onChange={(e) => setReason(e.target.value)}
          />
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <SubmitButton className="button" disabled={!reason.trim()} busy={pending}>
            Send report
          </SubmitButton>
          <button type="button" className="button button-quiet" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
