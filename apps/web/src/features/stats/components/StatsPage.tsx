import type { BookStats, ParagraphDropoff } from '@inkwell/contract';
import { STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useId, useMemo, type ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { PageTitle } from '../../../components/Page.tsx';
import { LoadError, Loading, Status } from '../../../components/Status.tsx';
import { isApiError } from '../../../lib/api.ts';
import { routeId } from '../../../lib/paths.ts';
import { bookStatsQuery } from '../api/stats.ts';
import { Chart } from './Chart.tsx';
import { followersChart, readersChart, retentionChart } from './charts.ts';
import '../stats.css';

/** What a figure under the privacy floor shows instead of a number. */
const UNDER_FLOOR = `fewer than ${STATS_PRIVACY_FLOOR} readers`;

const figure = (value: number | null) => (value === null ? UNDER_FLOOR : String(value));
const percent = (share: number | null) =>
  share === null ? UNDER_FLOOR : `${Math.round(share * 1000) / 10}%`;

/** A chart and its data table, under one heading: the table is what screen readers read. */
function Section({
  title,
  intro,
  chart,
  children,
}: {
  title: string;
  intro: string;
  chart?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="stats-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="stats-intro">{intro}</p>
      {chart}
      {children}
    </section>
  );
}

function Table({
  caption,
  head,
  rows,
  scroll = false,
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  scroll?: boolean;
}) {
  const table = (
    <table className="stats-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((cell) => (
            <th key={cell} scope="col">
              {cell}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row[0])}>
            {row.map((cell, i) =>
              i === 0 ? (
                <th key={i} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={i}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
  // A long table scrolls in its own box, which keyboard users can reach to scroll.
  return scroll ? (
    <div className="stats-table-scroll" tabIndex={0} role="region" aria-label={caption}>
      {table}
    </div>
  ) : (
    table
  );
}

/** One cell per paragraph, darker where more readers stopped; hatched under the floor. */
function HeatStrip({ dropoff }: { dropoff: ParagraphDropoff }) {
  const max = Math.max(1, ...dropoff.paragraphs.map((p) => p.readers ?? 0));
  return (
    <div className="heat-strip" aria-hidden="true" data-testid="heat-strip">
      {dropoff.paragraphs.map((p) => (
        <span
          key={p.paragraph}
          className={p.readers === null ? 'heat-cell heat-cell-floor' : 'heat-cell'}
          style={
            p.readers === null
              ? undefined
              : ({ '--heat': `${Math.round((p.readers / max) * 100)}%` } as React.CSSProperties)
          }
          title={`Paragraph ${p.paragraph + 1}: ${figure(p.readers)}`}
        />
      ))}
    </div>
  );
}

function Dropoff({
  stats,
  chapterId,
  detailed,
}: {
  stats: BookStats;
  chapterId: number | null;
  /** The request of the chosen chapter's drop-off: the overview's `stats` never has one. */
  detailed: UseQueryResult<BookStats>;
}) {
  const [, setSearch] = useSearchParams();
  const selectId = useId();
  const dropoff = stats.paragraph_dropoff;
  return (
    <Section
      title="Where readers stop"
      intro="Where readers' saved progress stops in a chapter, paragraph by paragraph."
    >
      <p>
        <label htmlFor={selectId}>Chapter </label>
        <select
          id={selectId}
          value={chapterId ?? ''}
          onChange={(event) =>
            setSearch({ chapter: event.target.value }, { replace: true, preventScrollReset: true })
          }
        >
          {stats.chapters.map((chapter) => (
            <option key={chapter.chapter_id} value={chapter.chapter_id}>
              {chapter.order}. {chapter.title}
            </option>
          ))}
        </select>
      </p>
      {!dropoff && detailed.isError && (
        <LoadError onRetry={() => void detailed.refetch()}>
          Could not load where readers stop.
        </LoadError>
      )}
      {/* Only while the drop-off is asked for: a disabled request (no chapter) never ends. */}
      {!dropoff && !detailed.isError && detailed.fetchStatus !== 'idle' && <Loading />}
      {/* Another chapter chosen: the figures shown are the last chapter's until its own come. */}
      {dropoff && detailed.isPlaceholderData && <Loading />}
      <div
        aria-busy={detailed.isPlaceholderData}
        className={detailed.isPlaceholderData ? 'stats-stale' : undefined}
      >
        {dropoff && dropoff.paragraphs.every((p) => p.readers === null) && (
          <Status kind="empty">
            No paragraph of this chapter has {STATS_PRIVACY_FLOOR} or more readers stopping there
            yet.
          </Status>
        )}
        {dropoff && (
          <>
            <HeatStrip dropoff={dropoff} />
            <Table
              caption="Readers whose saved progress stops at each paragraph"
              head={['Paragraph', 'Readers who stopped here']}
              rows={dropoff.paragraphs.map((p) => [p.paragraph + 1, figure(p.readers)])}
              scroll
            />
          </>
        )}
      </div>
    </Section>
  );
}

/** /my/workspace/books/{bookId}/stats: who keeps reading the author's book (issue 20). */
export function StatsPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const bookId = routeId(params.bookId);
  const asked = search.get('chapter');
  const askedChapter = asked === null ? null : routeId(asked);
  // The overview first; the drop-off of the chosen chapter (the first by default) with it.
  const overview = useQuery({ ...bookStatsQuery(bookId, null), enabled: askedChapter === null });
  const chapterId = askedChapter ?? overview.data?.chapters[0]?.chapter_id ?? null;
  const detailed = useQuery({
    ...bookStatsQuery(bookId, chapterId ?? 0),
    enabled: chapterId !== null && Number.isInteger(chapterId),
    placeholderData: keepPreviousData,
  });
  const stats = detailed.data ?? overview.data;
  const error = detailed.error ?? overview.error;

  const charts = useMemo(
    () =>
      stats && {
        followers: followersChart(stats),
        retention: retentionChart(stats),
        readers: readersChart(stats),
      },
    [stats],
  );

  const title = <PageTitle>Stats</PageTitle>;
  // ?chapter=abc names no chapter (NaN): nothing is asked for it, so it is not found at once.
  if (askedChapter !== null && (isApiError(error, 404) || !Number.isInteger(askedChapter)))
    return (
      <div className="stats-page">
        {title}
        <Status kind="error">This chapter is not a published chapter of the book.</Status>
      </div>
    );
  if (error && !stats)
    return (
      <div className="stats-page">
        {title}
        <Status kind="error">
          {isApiError(error, 404) ? 'This book was not found.' : 'Could not load the statistics.'}
        </Status>
      </div>
    );
  if (!stats || !charts)
    return (
      <div className="stats-page">
        {title}
        <Loading>Loading statistics...</Loading>
      </div>
    );

  const published = stats.chapters.length > 0;
  return (
    <div className="stats-page">
      {title}
      <p className="stats-intro">
        Figures are totals only. A chapter or paragraph reached by {UNDER_FLOOR} shows no figure, so
        that no reader can be singled out.
      </p>

      <Section
        title="Followers over time"
        intro={`${stats.followers.now} ${stats.followers.now === 1 ? 'follower' : 'followers'} now.`}
        chart={<Chart {...charts.followers} />}
      >
        <Table
          caption="Followers at the end of each day (UTC)"
          head={['Date', 'Followers']}
          rows={stats.followers.daily.map((day) => [day.date, day.count]).reverse()}
          scroll
        />
      </Section>

      {!published ? (
        <Status kind="empty">
          No published chapters yet: reader figures appear once readers reach a published chapter.
        </Status>
      ) : (
        <>
          <Section
            title="Retention"
            intro="The share of the first chapter's readers who reached each chapter."
            chart={<Chart {...charts.retention} />}
          >
            <Table
              caption="Retention by chapter"
              head={['Chapter', 'Title', "Share of chapter 1's readers"]}
              rows={stats.retention.map((point, i) => [
                point.order,
                stats.chapters[i]!.title,
                percent(point.share),
              ])}
            />
          </Section>

          <Section
            title="Readers and likes per chapter"
            intro="Readers are signed-in readers whose history or saved progress reached the chapter, and visitors counted once per browser session."
            chart={<Chart {...charts.readers} />}
          >
            <Table
              caption="Readers, likes and comments per chapter"
              head={['Chapter', 'Title', 'Readers', 'Likes', 'Comments']}
              rows={stats.chapters.map((chapter) => [
                chapter.order,
                chapter.title,
                figure(chapter.readers),
                figure(chapter.likes),
                figure(chapter.comments),
              ])}
            />
          </Section>

          <Dropoff stats={stats} chapterId={chapterId} detailed={detailed} />
        </>
      )}
    </div>
  );
}
