import type { CommentReport } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Modal } from '../../../components/Modal.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { SafeHtml } from '../../../components/SafeHtml.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { commentErrorText, reportsQuery, useReportActions } from '../api/comments.ts';
import '../comments.css';

type Action =
  | { kind: 'dismiss'; report: CommentReport }
  | { kind: 'delete'; report: CommentReport }
  | { kind: 'suspend'; report: CommentReport };

const CONFIRM: Record<Action['kind'], { title: string; text: string; button: string }> = {
  dismiss: {
    title: 'Dismiss this report?',
    text: 'The comment stays; the report leaves the list.',
    button: 'Dismiss',
  },
  delete: {
    title: 'Delete the reported comment?',
    text: 'It is removed for everyone (a thread with replies keeps a placeholder).',
    button: 'Delete comment',
  },
  suspend: {
    title: 'Suspend this user?',
    text: 'They cannot sign in any more; their sessions end and their sockets close.',
    button: 'Suspend user',
  },
};

/**
 * /admin/reports: the operators' list of open reports of comments, oldest first, with the
 * actions (dismiss, delete the comment, suspend its writer), each confirmed first. Anyone else
 * gets a 403 or 404 from the API, and this page says they are not allowed.
 */
export function ReportsPage() {
  const reports = useQuery(reportsQuery());
  const actions = useReportActions();
  const { push } = useToasts();
  const [action, setAction] = useState<Action | null>(null);
  const pending =
    actions.dismiss.isPending || actions.deleteComment.isPending || actions.suspend.isPending;

  const run = async () => {
    if (!action) return;
    const { report } = action;
    try {
      if (action.kind === 'dismiss') await actions.dismiss.mutateAsync(report.id);
      if (action.kind === 'delete') await actions.deleteComment.mutateAsync(report.comment.id);
      if (action.kind === 'suspend') await actions.suspend.mutateAsync(report.author_username);
      push(
        action.kind === 'dismiss'
          ? 'Report dismissed.'
          : action.kind === 'delete'
            ? 'Comment deleted.'
            : `${report.author_username} is suspended.`,
        { type: 'SUCCESS' },
      );
      setAction(null);
    } catch (error) {
      push(commentErrorText(error, 'That did not work. Please try again.'), { type: 'ERROR' });
    }
  };

  if (isApiError(reports.error, 403)) {
    return (
      <div className="page page-narrow">
        <PageTitle>Reports</PageTitle>
        <Status kind="error">You are not allowed to see this page: it is for operators.</Status>
        <Link to={paths.home}>Back home</Link>
      </div>
    );
  }

  return (
    <div className="page">
      <PageTitle>Reports</PageTitle>
      {reports.isPending ? (
        <Loading>Loading reports...</Loading>
      ) : reports.isError ? (
        <Status kind="error">Could not load the reports.</Status>
      ) : reports.data.length === 0 ? (
        <Status kind="empty">No open reports.</Status>
      ) : (
        <ul className="comment-list reports">
          {reports.data.map((report) => (
            <li key={report.id} className="comment report">
              <article aria-label={`Report ${report.id}`}>
                <p>
                  <strong>{report.reporter}</strong> reported a comment by{' '}
                  <strong>{report.author_username}</strong>
                  {report.author_suspended && (
                    <span className="comment-badge">Suspended</span>
                  )} on{' '}
                  <Link to={paths.chapter(report.book_id, report.comment.chapter_id)}>
                    {report.book_title}: {report.chapter_title}
                  </Link>{' '}
                  <time dateTime={report.created_at} className="muted">
                    {formatDateTime(report.created_at)}
                  </time>
                </p>
                <p>
                  <span className="muted">Reason:</span> {report.reason}
                </p>
                {report.comment.deleted ? (
                  <p className="comment-deleted muted">The comment was deleted.</p>
                ) : (
                  <blockquote className="paragraph-thread-quote">
                    <SafeHtml allow="comment" className="comment-body" html={report.comment.body} />
                  </blockquote>
                )}
                <div className="comment-actions">
                  <button
                    type="button"
                    className="button button-small button-secondary"
                    onClick={() => setAction({ kind: 'dismiss', report })}
                  >
                    Dismiss
                  </button>
                  {!report.comment.deleted && (
                    <button
                      type="button"
                      className="button button-small button-danger"
                      onClick={() => setAction({ kind: 'delete', report })}
                    >
                      Delete comment
                    </button>
                  )}
                  {!report.author_suspended && (
                    <button
                      type="button"
                      className="button button-small button-danger"
                      onClick={() => setAction({ kind: 'suspend', report })}
                    >
                      Suspend {report.author_username}
                    </button>
                  )}
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={action !== null}
        title={action ? CONFIRM[action.kind].title : 'Confirm'}
        onClose={() => setAction(null)}
      >
        {action && (
          <>
            <p>{CONFIRM[action.kind].text}</p>
            <div className="modal-actions">
              <button
                type="button"
                className="button button-danger"
                disabled={pending}
                onClick={run}
              >
                {CONFIRM[action.kind].button}
              </button>
              <button type="button" className="button button-quiet" onClick={() => setAction(null)}>
                Cancel
              </button>
            </div>
          </>
        )}
      </Modal>
    </div>
  );
}
