import type { AuthorProfile } from '@inkwell/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/Avatar.tsx';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { EpubDownload } from '../../../components/EpubDownload.tsx';
import { FilteredNotice } from '../../../components/FilteredNotice.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { useFiltersOff } from '../../../lib/filtered.ts';
import { paths } from '../../../lib/paths.ts';
import { displayName } from '../../../lib/titles.ts';
import { ebooksQuery, homePicksQuery, popularBooksQuery, recentBooksQuery } from '../api/home.ts';

const NO_AUTHOR = 'No author found.';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="home-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

function AuthorCard({
  author,
  big = false,
}: {
  author: AuthorProfile | null | undefined;
  big?: boolean;
}) {
  if (!author) return <Status kind="empty">{NO_AUTHOR}</Status>;
  const name = displayName(author);
  return (
    <Link to={paths.author(author.username)} className={`author-card${big ? ' is-big' : ''}`}>
      <Avatar src={author.avatar} name={name} size={big ? 96 : 56} decorative />
      <span className="author-card-name">{name}</span>
      {author.biography && <span className="author-card-bio">{author.biography}</span>}
    </Link>
  );
}

/** A failed author picks request, said in each of its sections instead of their empty text. */
function PicksError({ what, retry }: { what: string; retry: () => void }) {
  return <LoadError onRetry={retry}>Could not load {what}.</LoadError>;
}

export function HomePage() {
  const [filtersOff] = useFiltersOff();
  const recent = useQuery(recentBooksQuery(filtersOff));
  const popular = useQuery(popularBooksQuery(filtersOff));
  const picks = useQuery(homePicksQuery(filtersOff));
  const ebooks = useQuery(ebooksQuery(filtersOff));
  // A failed request is not "no author": the empty texts are only for picks that came back empty.
  const picksFailed = picks.isError && !picks.data;
  const retryPicks = () => void picks.refetch();

  return (
    <div className="page home">
      <section className="home-banner">
        <PageTitle title="Home">Find your next serial.</PageTitle>
        <p>New chapters every day from authors you will want to follow.</p>
        <Link className="button button-large" to={paths.books}>
          Explore
        </Link>
      </section>
      <FilteredNotice hidden={0} />

      <Section id="recent-title" title="Recent books">
        {recent.isPending && <Loading />}
        {recent.isError && <Status kind="error">Could not load recent books.</Status>}
        {recent.data && <FilteredNotice hidden={recent.data.hidden} sayOff={false} />}
        {recent.data?.books.length === 0 && <Status kind="empty">No books yet.</Status>}
        {recent.data && recent.data.books.length > 0 && (
          <ul className="shelf" aria-label="Recent books">
            {recent.data.books.map((book) => (
              <li key={book.id}>
                <Link to={paths.book(book.id)} className="cover-tile">
                  <CoverImage src={book.cover} title={book.title} />
                  <span className="cover-tile-title">{book.title}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <div className="home-columns">
        <Section id="popular-title" title="Top books">
          {popular.isPending && <Loading />}
          {popular.isError && <Status kind="error">Could not load top books.</Status>}
          {popular.data && <FilteredNotice hidden={popular.data.hidden} sayOff={false} />}
          {popular.data?.books.length === 0 && <Status kind="empty">No books yet.</Status>}
          {popular.data && popular.data.books.length > 0 && (
            <ol className="top-books">
              {popular.data.books.map((book, i) => (
                <li key={book.book_id}>
                  <span className="top-rank" aria-hidden="true">
                    {i + 1}
                  </span>
                  <CoverImage src={book.cover} title={book.title} className="cover-small" />
                  <Link to={paths.book(book.book_id)}>{book.title}</Link>
                </li>
              ))}
            </ol>
          )}
        </Section>

        <Section id="aotm-title" title="Author of the month">
          {picks.isPending ? (
            <Loading />
          ) : picksFailed ? (
            <PicksError what="the author of the month" retry={retryPicks} />
          ) : (
            <AuthorCard author={picks.data?.author_of_the_month} big />
          )}
        </Section>

        <Section id="rising-title" title="Rising author">
          {picks.isPending ? (
            <Loading />
          ) : picksFailed ? (
            <PicksError what="the rising author" retry={retryPicks} />
          ) : (
            <AuthorCard author={picks.data?.rising_author} big />
          )}
        </Section>
      </div>

      <Section id="featured-title" title="Featured authors">
        {picks.isPending && <Loading />}
        {picksFailed && <PicksError what="the featured authors" retry={retryPicks} />}
        {!picks.isPending && !picksFailed && !picks.data?.featured_authors.length && (
          <Status kind="empty">{NO_AUTHOR}</Status>
        )}
        {picks.data && picks.data.featured_authors.length > 0 && (
          <ul className="author-row">
            {picks.data.featured_authors.map((author) => (
              <li key={author.id}>
                <AuthorCard author={author} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="ebooks-title" title="E-books">
        <p className="field-help">Completed serials, each a whole book to read anywhere.</p>
        {ebooks.isPending && <Loading />}
        {ebooks.isError && (
          <LoadError onRetry={() => void ebooks.refetch()}>Could not load the e-books.</LoadError>
        )}
        {ebooks.data && <FilteredNotice hidden={ebooks.data.hidden} sayOff={false} />}
        {ebooks.data?.books.length === 0 && <Status kind="empty">No completed books yet.</Status>}
        {ebooks.data && ebooks.data.books.length > 0 && (
          <ul className="ebook-list">
            {ebooks.data.books.map((book) => (
              <li key={book.id} className="ebook">
                <CoverImage src={book.cover} title={book.title} className="cover-small" />
                <span>
                  <Link to={paths.book(book.id)}>{book.title}</Link>
                  <span className="muted"> by {book.author_username}</span>
                </span>
                <EpubDownload
                  className="button button-small button-secondary"
                  bookId={book.id}
                  title={book.title}
                  label={`Download ${book.title} as EPUB`}
                  preparing="Preparing..."
                >
                  EPUB
                </EpubDownload>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
