import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { BusyButton } from '../../../components/BusyButton.tsx';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { ALL_HIDDEN_TEXT, FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { useFiltersOff } from '../../../lib/filtered.ts';
import { formatDate } from '../../../lib/format.ts';
import { useListLoadMoreFocus } from '../../../lib/loadMoreFocus.ts';
import { paths } from '../../../lib/paths.ts';
import { recentChaptersQuery } from '../api/authors.ts';
import { useProfileAuthor } from './AuthorPage.tsx';

const NO_RECENT = 'No Recent Chapters.';
const LOAD_MORE_FAILED = 'Could not load more chapters.';

export function RecentWork() {
  const author = useProfileAuthor();
  const { push } = useToasts();
  const [filtersOff] = useFiltersOff();
  const chapters = useInfiniteQuery(recentChaptersQuery(author.id, filtersOff));
  const items = chapters.data?.pages.flatMap((page) => page.items) ?? [];
  const hidden = chapters.data?.pages[0]?.hidden ?? 0;
  const failedMore = chapters.isFetchNextPageError;
  // After the last page "Load More" goes: its focus goes to the first chapter that page brought.
  const { list, more } = useListLoadMoreFocus(items.length);

  useEffect(() => {
    if (failedMore) push(LOAD_MORE_FAILED, { type: 'ERROR' });
  }, [failedMore, push]);

  return (
    <section aria-labelledby="recent-work-title">
      <h2 id="recent-work-title" className="visually-hidden">
        Recent Work
      </h2>
      {chapters.isPending && <Loading />}
      {chapters.isError && !chapters.data && (
        <Status kind="error">Could not load recent chapters.</Status>
      )}
      {chapters.data && <FilteredNotice hidden={hidden} />}
      {chapters.data && items.length === 0 && (
        <Status kind="empty">{hidden ? ALL_HIDDEN_TEXT : NO_RECENT}</Status>
      )}
      {items.length > 0 && (
        <ul ref={list} className="recent-list">
          {items.map((c) => (
            <li key={c.id}>
              <CoverImage src={c.cover} title={c.book_title} className="cover-small" />
              <div>
                <Link to={paths.chapter(c.book_id, c.id)}>{c.title}</Link>
                <p className="muted">
                  {c.book_title} · updated{' '}
                  <time dateTime={c.updated_at}>{formatDate(c.updated_at)}</time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {failedMore && <Status kind="error">{LOAD_MORE_FAILED}</Status>}
      {chapters.hasNextPage && (
        <BusyButton
          ref={more}
          className="button button-quiet"
          busy={chapters.isFetchingNextPage}
          onClick={() => void chapters.fetchNextPage()}
        >
          {chapters.isFetchingNextPage ? 'Loading...' : 'Load More'}
        </BusyButton>
      )}
    </section>
  );
}
