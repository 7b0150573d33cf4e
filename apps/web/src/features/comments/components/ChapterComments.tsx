import { COMMENT_SORTS } from '@inkwell/contract/constants';
import type { CommentSort } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useSearchParams } from 'react-router';
import { useToasts } from '../../../components/toasts.tsx';
import { plural } from '../../../lib/format.ts';
import { bookQuery, chapterQuery } from '../../../lib/query.ts';
import { useAccount } from '../../../lib/session.tsx';
import { commentCountsQuery, commentErrorText, useChapterLike } from '../api/comments.ts';
import type { CommentViewer } from './CommentItem.tsx';
import { CommentList } from './CommentList.tsx';
import { THREAD_PARAM, threadParagraph, withThread } from '../thread.ts';
import '../comments.css';

export interface ChapterCommentsProps {
  bookId: number;
  chapterId: number;
  /** The chapter content element: its top-level children are the paragraphs (0-based). */
  content: HTMLElement;
  /** A positioned layer over the content where the margin counts go; none: no counts shown. */
  margin: HTMLElement | null;
}

/**
 * Everything of issue 19 under and beside a chapter: its like button, its comments (sorted,
 * paged, threaded), the counts in the paragraphs' margin and one paragraph's thread in a panel.
 * It is given the content once it rendered, so the chapter never waits for any of this.
 */
export function ChapterComments({ bookId, chapterId, content, margin }: ChapterCommentsProps) {
  const id = useId();
  const account = useAccount();
  const chapter = useQuery(chapterQuery(chapterId));
  const book = useQuery(bookQuery(bookId));
  const heading = useRef<HTMLHeadingElement>(null);
  const [sort, setSort] = useState<CommentSort>('newest');
  const [search, setSearch] = useSearchParams();
  const thread = threadParagraph(search.get(THREAD_PARAM));

  const viewer: CommentViewer = {
    userId: account?.id ?? null,
    isBookAuthor: !!account && book.data?.author_id === account.id,
    locked: !!(chapter.data?.comments_locked || book.data?.comments_locked),
  };

  const openThread = (paragraph: number | null) =>
    setSearch((params) => withThread(params, paragraph), {
      replace: true,
      preventScrollReset: true,
    });

  return (
    <>
      <ChapterLike chapterId={chapterId} signedIn={!!account} />
      {margin &&
        createPortal(
          <MarginCounts chapterId={chapterId} content={content} onOpen={openThread} />,
          margin,
        )}
      <section className="comments" aria-labelledby={`${id}-title`}>
        <div className="comments-head">
          <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
            Comments
          </h2>
          <SortChoice sort={sort} onChange={setSort} />
        </div>
        <CommentList
          chapterId={chapterId}
          paragraph={null}
          sort={sort}
          viewer={viewer}
          formLabel="Comment on this chapter"
          heading={heading}
        />
      </section>
      {thread !== null && (
        <ParagraphThread
          key={thread}
          chapterId={chapterId}
          paragraph={thread}
          quote={content.children[thread]?.textContent ?? ''}
          viewer={viewer}
          onClose={() => openThread(null)}
        />
      )}
    </>
  );
}

/** The chapter's like: its count and whether the viewer likes it (a toggle button). */
function ChapterLike({ chapterId, signedIn }: { chapterId: number; signedIn: boolean }) {
  const chapter = useQuery(chapterQuery(chapterId));
  const like = useChapterLike(chapterId);
  const { push } = useToasts();
  const likes = chapter.data?.likes ?? 0;
  const liked = chapter.data?.liked ?? false;
  return (
    <div className="chapter-like">
      <button
        type="button"
        className="button button-secondary"
        aria-pressed={liked}
        disabled={!signedIn || like.isPending}
        title={signedIn ? undefined : 'Sign in to like chapters'}
        onClick={() =>
          like.mutate(!liked, {
            onError: (e) =>
              push(commentErrorText(e, 'Could not like the chapter.'), { type: 'ERROR' }),
          })
        }
      >
        <span aria-hidden="true">{liked ? '♥' : '♡'} </span>
        {liked ? 'Liked' : 'Like this chapter'}
      </button>{' '}
      <span className="muted">{plural(likes, 'like', 'likes')}</span>
    </div>
  );
}

/**
 * The count of each paragraph that has comments, beside it in the margin: a button that opens
 * that paragraph's thread. Positions follow the paragraphs as the layout changes.
 */
function MarginCounts({
  chapterId,
  content,
  onOpen,
}: {
  chapterId: number;
  content: HTMLElement;
  onOpen(paragraph: number): void;
}) {
  const counts = useQuery(commentCountsQuery(chapterId));
  const [tops, setTops] = useState<number[]>([]);
  useLayoutEffect(() => {
    const measure = () =>
      setTops(Array.from(content.children, (block) => (block as HTMLElement).offsetTop));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(content);
    return () => observer.disconnect();
  }, [content]);
  if (!counts.data) return null;
  const entries = Object.entries(counts.data.paragraphs)
    .map(([paragraph, count]) => [Number(paragraph), count] as const)
    .filter(([paragraph, count]) => count > 0 && tops[paragraph] !== undefined);
  return (
    <>
      {entries.map(([paragraph, count]) => (
        <button
          key={paragraph}
          type="button"
          className="margin-count"
          style={{ top: tops[paragraph] }}
          aria-label={`${plural(count, 'comment', 'comments')} on paragraph ${paragraph + 1}`}
          data-paragraph={paragraph}
          onClick={() => onOpen(paragraph)}
        >
          {count}
        </button>
      ))}
    </>
  );
}

/**
 * One paragraph's thread: a side panel on wide screens, a bottom sheet on phones (CSS). Focus
 * moves into it when it opens and back where it was when it closes; Escape closes it.
 */
function ParagraphThread({
  chapterId,
  paragraph,
  quote,
  viewer,
  onClose,
}: {
  chapterId: number;
  paragraph: number;
  quote: string;
  viewer: CommentViewer;
  onClose(): void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [sort, setSort] = useState<CommentSort>('oldest');
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    return () => {
      // The opener may be gone (a count that appeared): then the marker of this paragraph.
      const target =
        before && before.isConnected && before !== document.body
          ? before
          : document.querySelector<HTMLElement>(`.margin-count[data-paragraph="${paragraph}"]`);
      target?.focus({ preventScroll: true });
    };
  }, [paragraph]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open]'))
        return;
      // Escape in a field holding text would throw the text away with the panel: it stays.
      const field = e.target;
      const typing =
        (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement) &&
        field.value.trim() !== '';
      if (!typing) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const excerpt = quote.length > 280 ? `${quote.slice(0, 280)}…` : quote;
  return (
    <aside className="paragraph-thread" role="dialog" aria-labelledby={`${id}-title`}>
      <div className="paragraph-thread-head">
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          Paragraph {paragraph + 1}
        </h2>
        <button
          type="button"
          className="button button-small button-quiet"
          aria-label="Close the paragraph's comments"
          onClick={onClose}
        >
          Close
        </button>
      </div>
      {excerpt && <blockquote className="paragraph-thread-quote">{excerpt}</blockquote>}
      <SortChoice sort={sort} onChange={setSort} />
      <CommentList
        chapterId={chapterId}
        paragraph={paragraph}
        sort={sort}
        viewer={viewer}
        formLabel="Comment on this paragraph"
        heading={heading}
      />
    </aside>
  );
}

const SORT_LABELS: Record<CommentSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
};

/** The order of a comment list: the chapter's and a paragraph thread's. */
function SortChoice({
  sort,
  onChange,
}: {
  sort: CommentSort;
  onChange: (sort: CommentSort) => void;
}) {
  return (
    <label className="comments-sort">
      Sort{' '}
      <select value={sort} onChange={(e) => onChange(e.target.value as CommentSort)}>
        {COMMENT_SORTS.map((s) => (
          <option key={s} value={s}>
            {SORT_LABELS[s]}
          </option>
        ))}
      </select>
    </label>
  );
}
