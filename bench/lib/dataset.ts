import crypto from 'node:crypto';
import fs from 'node:fs';
import { BOOK_RATINGS, BOOK_STATUSES, CONTENT_WARNING_IDS } from '@inkwell/contract/constants';
import { tagKey } from '@inkwell/contract/tags';
import { createDb } from '../../apps/server/src/db/kysely.ts';
import { migrateToLatest } from '../../apps/server/src/db/migrate.ts';
import { hashPassword } from '../../apps/server/src/modules/accounts/passwords.ts';
import { hashToken } from '../../apps/server/src/modules/accounts/tokens.ts';
import { openPostgresWriter, openSqliteWriter, type BulkWriter, type Engine } from './bulk.ts';
import { loadCorpus, type Corpus, type Paragraph } from './corpus.ts';
import { intBetween, normalish, seededRandom, shuffle, skewedIndex } from './random.ts';

export interface SizeSpec {
  books: number;
  chapters: number;
  /** Readers (users who are not authors); the first `followers` of them follow the star author. */
  readers: number;
  followers: number;
}

/**
 * S and L are the issue's sizes; M sits between them for the growth curve; XS is for the smoke
 * run. LB is L's library (books, readers, follows) with three chapters a book: the lists and
 * filters at L's size, generated in 15 minutes rather than L's hour and a half.
 */
export const SIZES: Record<string, SizeSpec> = {
  XS: { books: 60, chapters: 600, readers: 400, followers: 300 },
  S: { books: 1_000, chapters: 20_000, readers: 12_000, followers: 10_000 },
  M: { books: 5_000, chapters: 100_000, readers: 20_000, followers: 10_000 },
  L: { books: 20_000, chapters: 400_000, readers: 50_000, followers: 10_000 },
  LB: { books: 20_000, chapters: 60_000, readers: 50_000, followers: 10_000 },
};

export const BENCH_PASSWORD = 'bench-password-1';
export const STAR_USERNAME = 'bench_star';
const GENRE_COUNT = 23;
const BOOKS_PER_AUTHOR = 3;
const WORDS_PER_CHAPTER = 2_600;
/** Top-level comments on the star book's first chapter (the bench's comment list, issue 19). */
const COMMENTS_ON_STAR_CHAPTER = 500;
/** Issue 21: distinct tags in the dataset, and what books carry. */
const TAG_COUNT = 400;
const TAG_WORDS = [
  'found family',
  'slow burn',
  'magic',
  'dragons',
  'heist',
  'enemies to lovers',
  'time travel',
  'space',
  'academy',
  'politics',
  'war',
  'romance',
  'mystery',
  'court intrigue',
  'litrpg',
  'cultivation',
  'post apocalypse',
  'vampires',
  'pirates',
  'detective',
];
/** The n-th tag's name: the plain words first (the popular ones), then numbered variants. */
const tagName = (n: number) =>
  n < TAG_WORDS.length
    ? TAG_WORDS[n]!
    : `${TAG_WORDS[n % TAG_WORDS.length]!} ${Math.floor(n / TAG_WORDS.length)}`;

/** What the benchmarks need to know about a generated dataset, without asking the database. */
export interface DatasetInfo {
  size: string;
  engine: Engine;
  seed: number;
  corpus: string[];
  counts: Record<string, number>;
  /** Published books and, per book, its published chapter ids (first and count: ids are consecutive). */
  publishedBooks: Array<{ id: number; firstChapter: number; publishedChapters: number }>;
  /** The star author, followed by `followers` readers, with one published book. */
  star: { id: number; username: string; bookId: number };
  /** Authors with a session token and a published book each (for concurrent autosaves). */
  authors: Array<{ id: number; username: string; bookId: number }>;
  /** Readers holding a session: [firstId, firstId + count). */
  followersFrom: number;
  followers: number;
  /** Usernames of the first followers (they all have the password BENCH_PASSWORD), for logins. */
  followerNames: string[];
  /** Sessions exist for every author and for every follower; tokens derive from the seed. */
  tokenSeed: string;
  /**
   * The star book's first chapter, with COMMENTS_ON_STAR_CHAPTER top-level comments (ids from 1)
   * by readers (issue 19); absent from datasets kept from before.
   */
  commentedChapter?: { id: number; comments: number };
  /**
   * Issue 21: tag names, most used first (books carry 0–6 of TAG_COUNT tags, skewed to the first
   * ones, 0–2 warnings, a rating and a status); absent from datasets kept from before.
   */
  tags?: string[];
  generation: {
    seconds: number;
    chaptersPerSecond: number;
    megabytesPerSecond: number;
    textMegabytes: number;
  };
}

/** The bearer token of a generated user; only its SHA-256 is in the database. */
export const tokenFor = (tokenSeed: string, userId: number) =>
  crypto.createHash('sha256').update(`${tokenSeed}:${userId}`).digest('base64url');

const FIRST = [
  'Ada',
  'Ben',
  'Clara',
  'Dev',
  'Elena',
  'Farid',
  'Grace',
  'Hugo',
  'Iris',
  'Jonas',
  'Kira',
  'Leo',
  'Maya',
  'Nils',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sami',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Yara',
  'Zane',
];
const LAST = [
  'Adler',
  'Brook',
  'Castro',
  'Dahl',
  'Eze',
  'Fontaine',
  'Gray',
  'Hale',
  'Ibsen',
  'Jovanovic',
  'Kato',
  'Lind',
  'Moreau',
  'Novak',
  'Okafor',
  'Price',
  'Quist',
  'Rossi',
  'Sato',
  'Thorne',
  'Usman',
  'Voss',
  'Wilde',
  'Young',
  'Zeller',
];
const ADJECTIVES = [
  'Silent',
  'Broken',
  'Hidden',
  'Last',
  'Crimson',
  'Endless',
  'Forgotten',
  'Golden',
  'Hollow',
  'Iron',
  'Lost',
  'Midnight',
  'Northern',
  'Pale',
  'Quiet',
  'Restless',
  'Secret',
  'Shattered',
  'Sunken',
  'Wandering',
  'Winter',
  'Burning',
];
const NOUNS = [
  'Harbour',
  'Crown',
  'Garden',
  'Empire',
  'River',
  'Tower',
  'Letter',
  'Voyage',
  'Kingdom',
  'Forest',
  'Mirror',
  'Promise',
  'Storm',
  'Lantern',
  'Orchard',
  'Bridge',
  'Station',
  'Archive',
  'Island',
  'Chapel',
  'Compass',
  'Festival',
];

function bookTitle(random: () => number): string {
  const a = ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]!;
  const n = NOUNS[Math.floor(random() * NOUNS.length)]!;
  const m = NOUNS[Math.floor(random() * NOUNS.length)]!;
  const shapes = [`The ${a} ${n}`, `${n} of the ${a} ${m}`, `A ${a} ${n}`, `The ${n} and the ${m}`];
  return shapes[Math.floor(random() * shapes.length)]!;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A run of consecutive corpus paragraphs of about `words` words, as the editor's HTML. */
function chapterText(corpus: Corpus, random: () => number, words: number) {
  const book = corpus.books[Math.floor(random() * corpus.books.length)]!;
  let index = Math.floor(random() * book.length);
  const picked: Paragraph[] = [];
  let count = 0;
  while (count < words) {
    const paragraph = book[index % book.length]!;
    picked.push(paragraph);
    count += paragraph.words;
    index++;
  }
  return {
    content: picked.map((p) => `<p>${escapeHtml(p.text)}</p>`).join(''),
    word_count: count,
  };
}

function summaryText(corpus: Corpus, random: () => number): string {
  const book = corpus.books[Math.floor(random() * corpus.books.length)]!;
  const words = book[Math.floor(random() * book.length)]!.text.split(' ');
  return words.slice(0, intBetween(random, 25, 70)).join(' ');
}

const isoDaysAgo = (base: number, days: number) => new Date(base - days * 86_400_000).toISOString();

export interface GenerateOptions {
  size: string;
  engine: Engine;
  databaseUrl: string;
  seed?: number;
  log?: (line: string) => void;
}

/**
 * Writes a whole dataset into an empty database (migrated here first): authors, readers, books
 * (90 % published), chapters of about 2,600 words of real prose (10 % of the last chapters are
 * drafts), genres, follows (a star author with `followers` of them), read history skewed towards
 * a few popular books, and a session for every author and follower. Reports its own speed.
 */
export async function generateDataset(options: GenerateOptions): Promise<DatasetInfo> {
  const spec = SIZES[options.size];
  if (!spec)
    throw new Error(`unknown size ${options.size}; use one of ${Object.keys(SIZES).join(', ')}`);
  const log = options.log ?? (() => {});
  const seed = options.seed ?? 7;
  const random = seededRandom(seed);
  const started = performance.now();

  const db = createDb(options.databaseUrl);
  await migrateToLatest(db);
  const genreNames = new Map(
    (await db.selectFrom('genres').select(['id', 'name']).execute()).map((g) => [g.id, g.name]),
  );
  await db.destroy();

  const corpus = await loadCorpus(random);
  const writer: BulkWriter =
    options.engine === 'sqlite'
      ? openSqliteWriter(options.databaseUrl)
      : await openPostgresWriter(options.databaseUrl);
  const now = Date.now();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const tokenSeed = `bench-${seed}`;
  const counts: Record<string, number> = {};
  const add = async (table: string, columns: string[], rows: (string | number | null)[][]) => {
    await writer.insert(table, columns, rows);
    counts[table] = (counts[table] ?? 0) + rows.length;
  };

  // Users: 1 is the star author, then the authors, then the readers.
  const authorCount = Math.max(2, Math.ceil(spec.books / BOOKS_PER_AUTHOR));
  const firstReader = 2 + authorCount;
  const userCount = 1 + authorCount + spec.readers;
  const userColumns = [
    'id',
    'username',
    'username_lower',
    'password_hash',
    'first_name',
    'last_name',
    'biography',
    'email',
    'created_at',
    'updated_at',
  ];
  let rows: (string | number | null)[][] = [];
  const authorNames = new Map<number, { username: string; first: string; last: string }>();
  const followerNames: string[] = [];
  for (let id = 1; id <= userCount; id++) {
    const first = FIRST[Math.floor(random() * FIRST.length)]!;
    const last = LAST[Math.floor(random() * LAST.length)]!;
    const username =
      id === 1 ? STAR_USERNAME : `${first.toLowerCase()}_${last.toLowerCase()}_${id}`;
    const isAuthor = id < firstReader;
    if (isAuthor) authorNames.set(id, { username, first, last });
    else if (followerNames.length < 200) followerNames.push(username);
    const created = isoDaysAgo(now, 400 + random() * 400);
    rows.push([
      id,
      username,
      username.toLowerCase(),
      passwordHash,
      isAuthor ? first : '',
      isAuthor ? last : '',
      isAuthor ? summaryText(corpus, random) : '',
      `${username}@example.test`,
      created,
      created,
    ]);
    if (rows.length >= 5_000) {
      await add('users', userColumns, rows);
      rows = [];
    }
  }
  await add('users', userColumns, rows);
  await writer.flush();

  // Books: the star's book is book 1; the others go round the authors.
  const bookColumns = [
    'id',
    'author_id',
    'title',
    'summary',
    'cover',
    'is_published',
    'published_at',
    'created_at',
    'updated_at',
    'rating',
    'status',
  ];
  // Issue 21's fields come from a random stream of their own, so the rest of the dataset stays
  // what the seed made it before.
  const discoveryRandom = seededRandom(seed + 21);
  const bookTagRows: (string | number | null)[][] = [];
  const bookWarningRows: (string | number | null)[][] = [];
  const searchColumns = ['book_id', 'document'];
  const bookGenreColumns = ['book_id', 'genre_id'];
  const books: Array<{ id: number; author: number; published: boolean; created: number }> = [];
  const titlesByAuthor = new Map<number, Set<string>>();
  rows = [];
  const searchRows: (string | number | null)[][] = [];
  const genreRows: (string | number | null)[][] = [];
  for (let id = 1; id <= spec.books; id++) {
    const author = id === 1 ? 1 : 2 + ((id - 2) % authorCount);
    const published = id === 1 || random() < 0.9;
    const createdDays = 30 + random() * 700;
    let title = bookTitle(random);
    const taken = titlesByAuthor.get(author) ?? new Set<string>();
    for (let n = 2; taken.has(title.toLowerCase()); n++) title = `${bookTitle(random)} ${n}`;
    taken.add(title.toLowerCase());
    titlesByAuthor.set(author, taken);
    const summary = summaryText(corpus, random);
    const created = isoDaysAgo(now, createdDays);
    const publishedAt = published ? isoDaysAgo(now, createdDays - random() * 20) : null;
    rows.push([
      id,
      author,
      title,
      summary,
      random() < 0.7 ? `/uploads/bench-cover-${id % 50}.jpg` : null,
      published ? 1 : 0,
      publishedAt,
      created,
      created,
      BOOK_RATINGS[skewedIndex(discoveryRandom, BOOK_RATINGS.length)]!,
      BOOK_STATUSES[skewedIndex(discoveryRandom, BOOK_STATUSES.length)]!,
    ]);
    const tagIds = new Set<number>();
    for (let k = intBetween(discoveryRandom, 0, 6); k > 0; k--)
      tagIds.add(skewedIndex(discoveryRandom, TAG_COUNT) + 1);
    [...tagIds].forEach((tag, position) => bookTagRows.push([id, tag, position]));
    const warnings = new Set<string>();
    for (let k = intBetween(discoveryRandom, 0, 2); k > 0; k--)
      warnings.add(
        CONTENT_WARNING_IDS[Math.floor(discoveryRandom() * CONTENT_WARNING_IDS.length)]!,
      );
    for (const warning of warnings) bookWarningRows.push([id, warning]);
    const genres = shuffle(
      random,
      Array.from({ length: GENRE_COUNT }, (_, i) => i + 1),
    ).slice(0, intBetween(random, 1, 3));
    for (const g of genres) genreRows.push([id, g]);
    // The document the search indexer would write (refreshPendingBookDocuments): title, summary,
    // author names, genres, tags; for published books only, as it writes them (migration 0025).
    const name = authorNames.get(author)!;
    const document = [
      title,
      summary,
      name.username,
      name.first,
      name.last,
      ...genres.map((g) => genreNames.get(g)),
      ...[...tagIds].map((t) => tagName(t - 1)),
    ];
    if (published) searchRows.push([id, document.filter(Boolean).join('\n')]);
    books.push({ id, author, published, created: createdDays });
    if (rows.length >= 2_000) {
      await add('books', bookColumns, rows);
      rows = [];
    }
  }
  await add('books', bookColumns, rows);
  await writer.flush();
  await add('book_genres', bookGenreColumns, genreRows);
  await add(
    'tags',
    ['id', 'name', 'key'],
    Array.from({ length: TAG_COUNT }, (_, i) => [i + 1, tagName(i), tagKey(tagName(i))]),
  );
  await add('book_tags', ['book_id', 'tag_id', 'position'], bookTagRows);
  await add('book_warnings', ['book_id', 'warning'], bookWarningRows);
  await writer.flush();
  log(
    `users ${userCount}, books ${spec.books} written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // Chapters, book by book, so a book's chapter ids are consecutive.
  const chapterColumns = [
    'id',
    'book_id',
    'title',
    'content',
    'word_count',
    'chapter_order',
    'is_published',
    'first_published_at',
    'version',
    'created_at',
    'updated_at',
  ];
  const perBook = spec.chapters / spec.books;
  const restoreIndexes = await writer.deferIndexes('chapter_search');
  let chapterId = 0;
  let textBytes = 0;
  const publishedBooks: DatasetInfo['publishedBooks'] = [];
  const chaptersStarted = performance.now();
  let lastReport = chaptersStarted;
  rows = [];
  for (const [index, book] of books.entries()) {
    const remainingBooks = books.length - index;
    const remainingChapters = spec.chapters - chapterId;
    const n =
      index === books.length - 1
        ? remainingChapters
        : Math.max(
            1,
            Math.min(
              remainingChapters - (remainingBooks - 1),
              Math.round(perBook * (0.25 + random() * 1.5)),
            ),
          );
    const firstChapter = chapterId + 1;
    // In a published book the newest chapter is sometimes still a draft.
    const publishedCount = book.published ? (n > 1 && random() < 0.3 ? n - 1 : n) : 0;
    for (let order = 1; order <= n; order++) {
      chapterId++;
      const text = chapterText(
        corpus,
        random,
        Math.max(800, Math.round(normalish(random, WORDS_PER_CHAPTER, 500))),
      );
      textBytes += text.content.length;
      const isPublished = order <= publishedCount;
      const created = isoDaysAgo(now, book.created - order);
      rows.push([
        chapterId,
        book.id,
        `Chapter ${order}`,
        text.content,
        text.word_count,
        order,
        isPublished ? 1 : 0,
        isPublished ? created : null,
        1,
        created,
        created,
      ]);
    }
    if (book.published && publishedCount > 0)
      publishedBooks.push({ id: book.id, firstChapter, publishedChapters: publishedCount });
    if (rows.length >= 400) {
      await add('chapters', chapterColumns, rows);
      rows = [];
      const t = performance.now();
      if (t - lastReport > 10_000) {
        lastReport = t;
        const rate = chapterId / ((t - chaptersStarted) / 1000);
        log(
          `chapters ${chapterId}/${spec.chapters} (${rate.toFixed(0)}/s, ${(textBytes / 1e6 / ((t - chaptersStarted) / 1000)).toFixed(1)} MB/s)`,
        );
      }
    }
  }
  await add('chapters', chapterColumns, rows);
  await writer.flush();
  await writer.indexChapterText();
  await restoreIndexes();
  const chapterSeconds = (performance.now() - chaptersStarted) / 1000;

  // Book search documents, as the search indexer writes them (title, summary, author, genres).
  await add('book_search', searchColumns, searchRows);
  await writer.flush();

  // Follows: every follower follows the star; readers follow a few authors, popular ones more.
  const followColumns = ['follower_id', 'author_id', 'created_at'];
  rows = [];
  for (let reader = firstReader; reader < firstReader + spec.readers; reader++) {
    const followed = new Set<number>();
    if (reader < firstReader + spec.followers) followed.add(1);
    for (let k = intBetween(random, 0, 4); k > 0; k--)
      followed.add(2 + skewedIndex(random, authorCount));
    for (const author of followed) rows.push([reader, author, isoDaysAgo(now, random() * 300)]);
    if (rows.length >= 10_000) {
      await add('follows', followColumns, rows);
      rows = [];
    }
  }
  await add('follows', followColumns, rows);

  // Read history: a few reads per reader, crowding on a few books so that "popular" means something.
  const historyColumns = ['user_id', 'book_id', 'chapter_id', 'read_at'];
  rows = [];
  for (let reader = firstReader; reader < firstReader + spec.readers; reader++) {
    const read = new Set<number>();
    for (let k = intBetween(random, 1, 10); k > 0; k--) {
      const book = publishedBooks[skewedIndex(random, publishedBooks.length)]!;
      const chapter = book.firstChapter + Math.floor(random() * book.publishedChapters);
      if (read.has(chapter)) continue;
      read.add(chapter);
      rows.push([reader, book.id, chapter, isoDaysAgo(now, random() * 120)]);
    }
    if (rows.length >= 10_000) {
      await add('read_history', historyColumns, rows);
      rows = [];
    }
  }
  await add('read_history', historyColumns, rows);

  // Sessions for every author and follower; tokens derive from the seed, only hashes are stored.
  const sessionColumns = ['user_id', 'token_hash', 'created_at', 'expires_at'];
  const expires = new Date(now + 365 * 86_400_000).toISOString();
  rows = [];
  const sessionUsers = [
    ...Array.from({ length: authorCount + 1 }, (_, i) => i + 1),
    ...Array.from({ length: spec.followers }, (_, i) => firstReader + i),
  ];
  for (const user of sessionUsers) {
    rows.push([user, hashToken(tokenFor(tokenSeed, user)), new Date(now).toISOString(), expires]);
    if (rows.length >= 10_000) {
      await add('sessions', sessionColumns, rows);
      rows = [];
    }
  }
  await add('sessions', sessionColumns, rows);

  // Comments (issue 19): one busy chapter, the star book's first, with a few hundred top-level
  // comments by as many readers, some on paragraphs. A random stream of its own, so the rest of
  // the dataset stays what the seed made it before.
  const commentRandom = seededRandom(seed + 19);
  const starChapter = publishedBooks.find((b) => b.id === 1)!.firstChapter;
  const commentCount = Math.min(COMMENTS_ON_STAR_CHAPTER, spec.readers);
  const commentColumns = [
    'id',
    'chapter_id',
    'book_id',
    'user_id',
    'paragraph',
    'body',
    'created_at',
  ];
  rows = [];
  for (let i = 1; i <= commentCount; i++) {
    const book = corpus.books[Math.floor(commentRandom() * corpus.books.length)]!;
    const words = book[Math.floor(commentRandom() * book.length)]!.text.split(' ')
      .slice(0, intBetween(commentRandom, 5, 60))
      .join(' ');
    rows.push([
      i,
      starChapter,
      1,
      firstReader + i - 1,
      commentRandom() < 0.3 ? Math.floor(commentRandom() * 10) : null,
      `<p>${escapeHtml(words)}</p>`,
      isoDaysAgo(now, (commentCount - i) / 100),
    ]);
  }
  await add('comments', commentColumns, rows);
  await writer.flush();

  if (writer.engine === 'postgres') {
    for (const table of [
      'users',
      'books',
      'chapters',
      'read_history',
      'sessions',
      'comments',
      'tags',
    ]) {
      await writer.exec(
        `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1))`,
      );
    }
    // The counters triggers keep on each book (words, readers, followers, latest chapter) were
    // bumped about fifteen times per book within minutes, each bump a new row version that no
    // vacuum could free in time for the next: left so, the books table is four times its live
    // size (34 MB for 20,000 books), and every list that reads it whole reads that. A site whose
    // autovacuum frees the space as the same bumps come over months never grows so; the table
    // is written once more, compactly.
    await writer.exec('vacuum full books');
    // What autovacuum does shortly after a bulk load: statistics for the planner, and the
    // visibility map that lets index-only scans skip the table.
    await writer.exec('vacuum analyze');
  }
  await writer.close();

  const seconds = (performance.now() - started) / 1000;
  const authors = books
    .filter((b) => b.published && b.author !== 1)
    .filter((b, i, all) => all.findIndex((o) => o.author === b.author) === i)
    .map((b) => ({ id: b.author, username: authorNames.get(b.author)!.username, bookId: b.id }));
  const info: DatasetInfo = {
    size: options.size,
    engine: options.engine,
    seed,
    corpus: corpus.source,
    counts,
    publishedBooks,
    star: { id: 1, username: STAR_USERNAME, bookId: 1 },
    authors,
    followersFrom: firstReader,
    followers: spec.followers,
    followerNames,
    tokenSeed,
    commentedChapter: { id: starChapter, comments: commentCount },
    tags: Array.from({ length: 20 }, (_, i) => tagName(i)),
    generation: {
      seconds,
      chaptersPerSecond: spec.chapters / chapterSeconds,
      megabytesPerSecond: textBytes / 1e6 / chapterSeconds,
      textMegabytes: textBytes / 1e6,
    },
  };
  log(
    `dataset ${options.size} on ${options.engine}: ${Object.entries(counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}; ` +
      `${seconds.toFixed(1)} s total, ${info.generation.chaptersPerSecond.toFixed(0)} chapters/s, ${info.generation.megabytesPerSecond.toFixed(1)} MB/s of text`,
  );
  return info;
}

export function datasetFileSize(url: string): number {
  return ['', '-wal'].reduce(
    (sum, suffix) => sum + (fs.existsSync(url + suffix) ? fs.statSync(url + suffix).size : 0),
    0,
  );
}
