import { BOOK_SORTS } from '@inkwell/contract/constants';
import { averageBytes, recordResponses, type RecordedResponse } from '../lib/capture.ts';
import type { DatasetInfo } from '../lib/dataset.ts';
import { interleaved, type LoadSettings } from '../lib/load.ts';
import type { SearchQueries } from '../lib/queries.ts';
import { seededRandom } from '../lib/random.ts';
import type { Row } from '../lib/report.ts';
import { startCeiling, type RunningProcess } from '../lib/server.ts';
import { encodeCursor } from '../../apps/server/src/modules/comments/comments.service.ts';

export const FILTERED_LIST_CASE = 'filtered list';
export const FILTERED_SEARCH_CASE = 'filtered search';

const WARNINGS = ['graphic-violence', 'sexual-content', 'self-harm', 'abuse'];

/** A filter as a reader sets one: often a tag, usually an excluded warning, sometimes ratings. */
function filters(tags: string[], pick: <T>(list: readonly T[]) => T, random: () => number) {
  const params = new URLSearchParams();
  if (random() < 0.7) params.set('tags', pick(tags));
  if (random() < 0.6) params.set('exclude_warnings', pick(WARNINGS));
  if (random() < 0.5) params.set('rating', random() < 0.5 ? 'general,teen' : 'general,teen,mature');
  if (random() < 0.3) params.set('exclude_tags', pick(tags));
  if (random() < 0.2) params.set('min_words', String(10_000));
  if (params.size === 0) params.set('status', 'completed');
  return params.toString();
}

function filteredList(
  tags: string[],
  pick: <T>(list: readonly T[]) => T,
  random: () => number,
  books: number,
) {
  // Early pages mostly, as readers page: a filtered list is shorter than the library.
  const offset = Math.floor(random() ** 3 * Math.max(1, books / 20)) * 10;
  return `/api/books?limit=10&offset=${offset}&sort=${pick(BOOK_SORTS)}&${filters(tags, pick, random)}`;
}

export interface ReadCase {
  suite: 'read' | 'search';
  name: string;
  paths: string[];
  /** Minimum share of the ceiling's req/s; search on L is judged by p99 instead. */
  minRatio?: number;
}

const DISTINCT_PATHS = 300;
/** The comment list's case, measured with the answer cache and without (run.ts). */
export const COMMENT_LIST_CASE = 'GET /api/chapters/{id}/comments (500 comments)';

/** The read calls of the issue, each over a few hundred distinct URLs of the dataset. */
export function readCases(info: DatasetInfo, queries: SearchQueries): ReadCase[] {
  const random = seededRandom(11);
  const books = info.publishedBooks;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const times = <T>(make: () => T) => Array.from({ length: DISTINCT_PATHS }, make);
  const chapterIds = times(() => {
    const book = pick(books);
    return book.firstChapter + Math.floor(random() * book.publishedChapters);
  });
  // Issue 19: a chapter with 500 comments, its pages newest and oldest first from any cursor.
  const commented = info.commentedChapter;
  const commentPages = commented
    ? times(() => {
        const sort = random() < 0.5 ? 'newest' : 'oldest';
        const from = 1 + Math.floor(random() * commented.comments);
        return `/api/chapters/${commented.id}/comments?sort=${sort}&cursor=${encodeCursor(from)}`;
      })
    : [];
  const search = (list: string[]) =>
    list.map((q) => `/api/books/search?q=${encodeURIComponent(q)}`);
  return [
    // Not a target: the same stack (hooks, headers, metrics) with no database and a tiny body, to
    // show how much of the ceiling any route can reach on this machine.
    { suite: 'read', name: 'GET /healthz (floor: no database)', paths: ['/healthz'] },
    {
      suite: 'read',
      name: 'GET /api/chapters/{id}',
      paths: chapterIds.map((id) => `/api/chapters/${id}`),
      minRatio: 0.5,
    },
    {
      suite: 'read',
      name: 'GET /api/books?limit=10&offset=N',
      paths: times(
        () => `/api/books?limit=10&offset=${Math.floor(random() * Math.max(1, books.length - 10))}`,
      ),
      minRatio: 0.5,
    },
    {
      suite: 'read',
      name: 'GET /api/books/{id}',
      paths: times(() => `/api/books/${pick(books).id}`),
      minRatio: 0.3,
    },
    {
      suite: 'read',
      name: 'GET /api/books/{id}/chapters',
      paths: times(() => `/api/books/${pick(books).id}/chapters`),
      minRatio: 0.3,
    },
    ...(commented
      ? [
          {
            suite: 'read' as const,
            name: COMMENT_LIST_CASE,
            paths: [`/api/chapters/${commented.id}/comments`, ...commentPages],
            minRatio: 0.3,
          },
        ]
      : []),
    { suite: 'read', name: 'GET /api/popular/books', paths: ['/api/popular/books'], minRatio: 0.3 },
    { suite: 'read', name: 'GET /api/recent/books', paths: ['/api/recent/books'], minRatio: 0.3 },
    { suite: 'search', name: 'search: common word', paths: search(queries.common), minRatio: 0.3 },
    { suite: 'search', name: 'search: rare word', paths: search(queries.rare), minRatio: 0.3 },
    { suite: 'search', name: 'search: phrase', paths: search(queries.phrase), minRatio: 0.3 },
    // Issue 21: lists and searches with filters (a popular tag, an excluded warning, ratings, a
    // sort); search answers carry their snippets. Judged on the server without the answer cache.
    ...(info.tags
      ? [
          {
            suite: 'search' as const,
            name: FILTERED_LIST_CASE,
            paths: times(() => filteredList(info.tags!, pick, random, books.length)),
          },
          {
            suite: 'search' as const,
            name: FILTERED_SEARCH_CASE,
            paths: times(
              () =>
                `/api/books/search?q=${encodeURIComponent(pick(queries.common))}&${filters(info.tags!, pick, random)}`,
            ),
          },
        ]
      : []),
  ];
}

export interface ReadMeasurement {
  rows: Row[];
  /** Highest server RSS seen while the reads ran (bytes). */
  peakRss: number;
}

/**
 * For each case: records the real answers, then (with the same autocannon settings) loads the
 * server and the ceiling serving those recorded bytes in alternating slices, so both see the same
 * machine load. A short warm-up run precedes each server measurement.
 */
export async function measureReads(options: {
  server: RunningProcess;
  cases: ReadCase[];
  settings: LoadSettings & { slices: number };
  warmupSeconds: number;
  label: { engine: string; size: string };
  /** Search on the largest size is judged by its p99 at 10 clients (target: 50 ms). */
  searchP99Target?: number;
  log: (line: string) => void;
}): Promise<ReadMeasurement> {
  const { server, cases, settings, label, log } = options;
  const recorded: Record<string, RecordedResponse> = {};
  const bytes = new Map<string, number>();
  for (const c of cases) {
    const answers = await recordResponses(server.url, c.paths);
    const bad = Object.entries(answers).filter(([, r]) => r.status !== 200);
    if (bad.length)
      throw new Error(
        `${c.name}: ${bad.length} answers were not 200, e.g. ${bad[0]![0]} -> ${bad[0]![1].status}`,
      );
    Object.assign(recorded, answers);
    bytes.set(c.name, averageBytes(answers));
  }
  const ceiling = await startCeiling(recorded);
  const rows: Row[] = [];
  let peakRss = server.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rss())), 250);
  try {
    for (const c of cases) {
      const { measured, raw } = await interleaved(
        { server: server.url, ceiling: ceiling.url },
        { ...settings, warmupSeconds: options.warmupSeconds },
        (i) => ({
          path: c.paths[i % c.paths.length]!,
        }),
      );
      const ratio = raw.rps > 0 ? measured.rps / raw.rps : 0;
      const judgedByP99 = c.suite === 'search' && options.searchP99Target !== undefined;
      const judged = judgedByP99 || c.minRatio !== undefined;
      const pass =
        measured.errors === 0 &&
        (judgedByP99 ? measured.p99 <= options.searchP99Target! : ratio >= (c.minRatio ?? 0));
      rows.push({
        suite: c.suite,
        name: c.name,
        ...label,
        rps: measured.rps,
        p50: measured.p50,
        p99: measured.p99,
        max: measured.max,
        ceilingRps: raw.rps,
        ratio: Math.round(ratio * 1000) / 1000,
        value: Math.round((bytes.get(c.name) ?? 0) / 102.4) / 10,
        unit: 'KB body',
        errors: measured.errors + raw.errors,
        ...(judged && {
          target: judgedByP99 ? `p99 ≤ ${options.searchP99Target} ms` : `ratio ≥ ${c.minRatio}`,
          pass,
        }),
      });
      log(
        `  ${c.name.padEnd(36)} ${String(measured.rps).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  ` +
          `ceiling ${raw.rps} req/s  ratio ${ratio.toFixed(2)}  errors ${measured.errors}`,
      );
    }
  } finally {
    clearInterval(sampler);
    await ceiling.stop();
  }
  return { rows, peakRss };
}
