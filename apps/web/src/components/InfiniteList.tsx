import { useEffect, useRef, type ReactNode } from 'react';
import { BusyButton } from './BusyButton.tsx';
import { NEXT_PAGE_VISIBILITY } from '../lib/constants.ts';
import { useListLoadMoreFocus } from '../lib/loadMoreFocus.ts';

/** The offset of the next page, or undefined once a page came back shorter than the page size. */
export function nextOffset(
  lastPage: readonly unknown[],
  allPages: readonly (readonly unknown[])[],
  pageSize: number,
): number | undefined {
  if (lastPage.length < pageSize) return undefined;
  return allPages.reduce((sum, page) => sum + page.length, 0);
}

interface InfiniteListProps<T> {
  items: readonly T[];
  render(item: T): ReactNode;
  getKey(item: T): string | number;
  hasMore: boolean;
  loading: boolean;
  /**
   * The last next-page request failed. The observer then waits (armed again, it would see the
   * last item at once and ask again, in a loop as fast as the network answers); the button asks.
   */
  failed?: boolean;
  onLoadMore(): void;
  className?: string;
  label: string;
  /** The button offered beside the observer, for keyboard users and when observers are unavailable. */
  moreLabel?: string;
}

/**
 * A list that asks for the next page when its last item is at least NEXT_PAGE_VISIBILITY visible,
 * and stops once `hasMore` is false (a page shorter than the page size came back). After a failed
 * next page only the button asks again; a page that then arrives arms the observer again. When the
 * button goes (the last page is in) with the keyboard's focus, the first item of that page takes it.
 */
export function InfiniteList<T>({
  items,
  render,
  getKey,
  hasMore,
  loading,
  failed = false,
  onLoadMore,
  className,
  label,
  moreLabel = 'Load more',
}: InfiniteListProps<T>) {
  const lastRef = useRef<HTMLLIElement | null>(null);
  const { list: listRef, more: moreRef } = useListLoadMoreFocus(items.length);
  const loadRef = useRef(onLoadMore);
  loadRef.current = onLoadMore;

  useEffect(() => {
    const last = lastRef.current;
    if (!last || !hasMore || loading || failed || typeof IntersectionObserver === 'undefined')
      return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting && e.intersectionRatio >= NEXT_PAGE_VISIBILITY))
          loadRef.current();
      },
      { threshold: NEXT_PAGE_VISIBILITY },
    );
    observer.observe(last);
    return () => observer.disconnect();
  }, [items.length, hasMore, loading, failed]);

  return (
    <>
      <ul ref={listRef} className={className} aria-label={label} aria-busy={loading || undefined}>
        {items.map((item, i) => (
          <li key={getKey(item)} ref={i === items.length - 1 ? lastRef : undefined}>
            {render(item)}
          </li>
        ))}
      </ul>
      {hasMore && (
        <div className="list-more">
          <BusyButton
            ref={moreRef}
            className="button button-quiet"
            busy={loading}
            onClick={onLoadMore}
          >
            {loading ? 'Loading...' : moreLabel}
          </BusyButton>
        </div>
      )}
    </>
  );
}
