import type { ChapterSummary } from '@inkwell/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentType,
} from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { SafeHtml } from '../../../components/SafeHtml.tsx';
import { AuthorNote } from './AuthorNote.tsx';
import { LoadError, Loading } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { paths, routeId } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { bookChaptersQuery, bookQuery, chapterQuery } from '../../../lib/query.ts';
import { recordHistory, reportView, saveProgress } from '../api/reader.ts';
import { useHistoryRecorder } from '../useHistoryRecorder.ts';
import { loadChunk } from '../../../lib/chunks.ts';
import { useRestorePosition } from '../restorePosition.ts';

const PositionSaver = lazy(() =>
  loadChunk(() => import('./PositionSaver.tsx')).then((m) => ({ default: m.PositionSaver })),
);
import { ReaderSettingsPanel } from './ReaderSettingsPanel.tsx';

/**
 * The chapters before and after this one in reading order, and its number among the chapters
 * this viewer may read (its place in the list: the author's own list has drafts too).
 */
function neighbours(chapters: readonly ChapterSummary[] | undefined, chapterId: number) {
  const i = chapters?.findIndex((c) => c.id === chapterId) ?? -1;
  if (!chapters || i < 0) return { previous: undefined, next: undefined, number: undefined };
  return { previous: chapters[i - 1], next: chapters[i + 1], number: i + 1 };
}

function NavLinkOrText({
  to,
  children,
  rel,
  onClick,
}: {
  to: string | undefined;
  children: string;
  rel: 'prev' | 'next';
  onClick?(): void;
}) {
  if (!to) return <span className={`reader-nav-${rel} is-disabled`}>{children}</span>;
  return (
    <Link to={to} rel={rel} className={`button button-quiet reader-nav-${rel}`} onClick={onClick}>
      {children}
    </Link>
  );
}

/** What the reader hands a notes panel (given by the app, so the reader does not import it). */
export interface ReaderNotesProps {
  bookId: number;
  chapterId: number;
  /** The chapter content element: its top-level children are the paragraphs notes point at. */
  content: HTMLElement;
}

/**
 * What the reader hands the comments (given by the app): the content once it rendered, so they
 * load after the text, and the margin layer beside it for the paragraphs' counts.
 */
export interface ReaderCommentsProps {
  bookId: number;
  chapterId: number;
  content: HTMLElement;
  margin: HTMLElement | null;
}

/** A paragraph index from "?paragraph=n" (a "Continue reading" link), or null. */
function paragraphParam(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  return Number(value);
}

export function ReaderPage({
  Notes,
  Comments,
}: {
  Notes?: ComponentType<ReaderNotesProps>;
  Comments?: ComponentType<ReaderCommentsProps>;
} = {}) {
  const params = useParams();
  const [search] = useSearchParams();
  const location = useLocation();
  const bookId = routeId(params.bookId);
  const chapterId = routeId(params.chapterId);
  const { state } = useSession();
  const client = useQueryClient();
  const top = useRef<HTMLParagraphElement>(null);

  const chapter = useQuery(chapterQuery(chapterId));
  const book = useQuery(bookQuery(bookId));
  const chapters = useQuery(bookChaptersQuery(bookId));
  const { previous, next, number } = neighbours(chapters.data, chapterId);

  const recordNow = useHistoryRecorder({
    bookId,
    chapterId,
    enabled: state.status === 'in' && chapter.isSuccess,
    record: (book, chapterRead) => recordHistory(client, book, chapterRead),
  });

  // A visitor's view counts for the author's statistics once the text is there (issue 20).
  const visitorReading = state.status === 'out' && chapter.isSuccess;
  useEffect(() => {
    if (visitorReading) reportView(chapterId);
  }, [visitorReading, chapterId]);

  const [content, setContent] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState<HTMLDivElement | null>(null);
  const contentRef = useCallback((wrapper: HTMLDivElement | null) => {
    setContent((wrapper?.firstElementChild as HTMLElement | null) ?? null);
  }, []);
  const signedIn = state.status === 'in';
  // Restore at once; the lazily loaded saver then measures the restored place, not the top.
  useRestorePosition(content, paragraphParam(search.get('paragraph')), location);
  const savePosition = useCallback(
    (book: number, position: Parameters<typeof saveProgress>[2]) =>
      saveProgress(client, book, position),
    [client],
  );

  if (isApiError(chapter.error, 404) || !Number.isInteger(chapterId)) {
    return (
      <div className="page page-narrow">
        <PageTitle>Chapter not found</PageTitle>
        <p>This chapter does not exist or is not published.</p>
        <Link to={paths.book(bookId)}>Back to the book</Link>
      </div>
    );
  }
  const bar = (
    <div className="reader-bar">
      <p id="reader-top" ref={top} tabIndex={-1} className="reader-back">
        <Link to={paths.book(bookId)}>
          <span aria-hidden="true">← </span>
          {book.data?.title ?? 'Back to the book'}
        </Link>
      </p>
      <ReaderSettingsPanel />
    </div>
  );
  // Until the chapter arrives the page already has its final frame: the same bar, and a screen's
  // height below it, so nothing on screen moves when the text comes in (no layout shift).
  if (chapter.isPending) {
    return (
      <article className="reader" aria-busy="true">
        {bar}
        {/* Keyed apart from the content's wrapper, so it is replaced, not moved down. */}
        <div key="pending" className="reader-pending">
          <Loading />
        </div>
      </article>
    );
  }
  if (chapter.isError)
    return (
      <LoadError onRetry={() => void chapter.refetch()}>Could not load this chapter.</LoadError>
    );

  const toTop = (e: React.MouseEvent) => {
    e.preventDefault();
    window.scrollTo({ top: 0, behavior: 'smooth' });
    top.current?.focus({ preventScroll: true });
  };

  return (
    <article className="reader">
      {bar}
      <header className="reader-header">
        {number !== undefined && <p className="reader-kicker">Chapter {number}</p>}
        <PageTitle>{chapter.data.title}</PageTitle>
      </header>
      <AuthorNote html={chapter.data.note_before} />
      <div key="content" ref={contentRef} className="reader-content-wrap">
        <SafeHtml className="reader-content prose" html={chapter.data.content} />
        {/* After the content (its first child): the paragraphs' comment counts go here. */}
        {Comments && <div className="reader-margin" ref={setMargin} />}
      </div>
      <AuthorNote html={chapter.data.note_after} />
      {signedIn && content && (
        <Suspense fallback={null}>
          <PositionSaver
            bookId={bookId}
            chapterId={chapterId}
            content={content}
            enabled
            save={savePosition}
          />
        </Suspense>
      )}
      {Notes && signedIn && content && (
        <Suspense fallback={null}>
          <Notes bookId={bookId} chapterId={chapterId} content={content} />
        </Suspense>
      )}
      <nav className="reader-nav" aria-label="Chapters">
        <NavLinkOrText to={previous && paths.chapter(bookId, previous.id)} rel="prev">
          Previous Chapter
        </NavLinkOrText>
        <a href="#reader-top" className="reader-to-top" onClick={toTop}>
          To the Top
        </a>
        <NavLinkOrText to={next && paths.chapter(bookId, next.id)} rel="next" onClick={recordNow}>
          Next Chapter
        </NavLinkOrText>
      </nav>
      {/* Without the list, Previous and Next are not known: say so rather than show them dead. */}
      {chapters.isError && (
        <LoadError onRetry={() => void chapters.refetch()}>
          Could not load the list of chapters.
        </LoadError>
      )}
      {Comments && content && (
        <Suspense fallback={null}>
          {/* One per chapter: a comment typed, or a like still on its way, stays with its chapter. */}
          <Comments
            key={chapterId}
            bookId={bookId}
            chapterId={chapterId}
            content={content}
            margin={margin}
          />
        </Suspense>
      )}
    </article>
  );
}
