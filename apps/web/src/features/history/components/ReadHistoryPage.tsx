import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { BusyButton } from '../../../components/BusyButton.tsx';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { paths } from '../../../lib/paths.ts';
import { historyQuery } from '../../../lib/query.ts';
import { useDeleteHistoryItem, useHistoryDeletesPending } from '../api/history.ts';

const DELETED = 'Deleted read history item.';
const DELETE_FAILED = 'Could not delete read history item';

export function ReadHistoryPage() {
  const history = useQuery(historyQuery());
  const navigate = useNavigate();
  const { push } = useToasts();
  const remove = useDeleteHistoryItem({
    onSuccess: () => push(DELETED, { type: 'SUCCESS' }),
    onError: () => push(DELETE_FAILED, { type: 'ERROR' }),
  });
  const deleting = useHistoryDeletesPending();
  const items = history.data?.read_history ?? [];

  return (
    <div className="page">
      <PageTitle>Read History</PageTitle>
      {history.isPending && <Loading />}
      {history.isError && <Status kind="error">Could not load your read history.</Status>}
      {history.data && items.length === 0 && (
        <Status kind="empty">
          No chapters read yet. <Link to={paths.books}>Find something to read.</Link>
        </Status>
      )}
      {items.length > 0 && (
        <div className="table-scroll" role="region" aria-label="Read history" tabIndex={0}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Cover</th>
                <th scope="col">Book Title</th>
                <th scope="col">Title</th>
                <th scope="col">Read On</th>
                <th scope="col">View</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={`${item.chapter_id}-${item.read_at}`}>
                  <td>
                    <CoverImage
                      src={item.book_cover}
                      title={item.book_title}
                      className="cover-tiny"
                    />
                  </td>
                  <td>
                    <Link to={paths.book(item.book_id)}>{item.book_title}</Link>
                  </td>
                  <td>
                    <Link to={paths.chapter(item.book_id, item.chapter_id)}>
                      {item.chapter_title}
                    </Link>
                  </td>
                  <td>
                    <time dateTime={item.read_at}>{formatDateTime(item.read_at)}</time>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-small"
                      // The visible words first (WCAG 2.5.3), then which chapter.
                      aria-label={`Read Now: ${item.chapter_title}`}
                      onClick={() => navigate(paths.chapter(item.book_id, item.chapter_id))}
                    >
                      Read Now
                    </button>
                  </td>
                  <td>
                    <BusyButton
                      className="button button-small button-danger"
                      aria-label={`Delete ${item.chapter_title} from history`}
                      busy={deleting.has(item.chapter_id)}
                      onClick={() => remove.mutate(item.chapter_id)}
                    >
                      Delete
                    </BusyButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
