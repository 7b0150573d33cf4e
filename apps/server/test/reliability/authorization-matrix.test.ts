import { WS_CLOSE } from '@inkwell/contract';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  NO_REQUEST_LIMITS,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { testEngine } from '../helpers/database.ts';
import { makeImage, multipart } from '../helpers/images.ts';
import { closeAllSockets, connect, listen } from '../helpers/ws.ts';

/**
 * Every route of the app × {anonymous, another user, the owner}. The route list comes from the
 * app itself (an onRoute hook while it is built): a route missing from MATRIX fails, so no new
 * route escapes this table, and a route documented as (auth) must refuse a visitor with 401.
 */
interface Route {
  method: string;
  url: string;
  secured: boolean;
  websocket: boolean;
}

const routes: Route[] = [];
let t: TestApp;
let base: string;
let owner: TestUser;
let other: TestUser;
let uploadHref: string;
let importJob: number;
/**
 * Someone owner and other put on their block and mute lists, and whom the operators' suspend and
 * unsuspend rows name (issue 19).
 */
let bystander: TestUser;
/** The owner is also an operator (ADMIN_USERNAMES), so the operators' routes have an owner column. */
const OPERATOR = `mx_operator_${process.pid % 1000}`;
/** Read-only rows share one fixture; rows that write get their own. */
let shared: Fixture;

beforeAll(async () => {
  t = await createTestApp(
    // Every route many times from one address: the request limits would answer 429 first.
    { LOGIN_MAX_FAILURES: '1000', ...NO_REQUEST_LIMITS, ADMIN_USERNAMES: OPERATOR },
    {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          routes.push({
            method,
            url: route.url,
            secured: Boolean(route.schema?.security),
            websocket: Boolean((route as { websocket?: boolean }).websocket),
          });
        }
      },
    },
  );
  base = await listen(t.app);
  owner = await signup(t.app, OPERATOR);
  other = await signup(t.app);
  bystander = await signup(t.app);
  const form = multipart('image', await makeImage('png', 40, 40), 'a.png', 'image/png');
  uploadHref = (
    await t.app.inject({
      method: 'POST',
      url: '/api/authors/avatar',
      headers: { ...form.headers, authorization: `Bearer ${owner.token}` },
      payload: form.payload,
    })
  ).json().href;
  const story = multipart(
    'file',
    Buffer.from('# A Story\n\nOnce upon a time.\n'),
    'story.md',
    'text/markdown',
  );
  importJob = (
    await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...story.headers, authorization: `Bearer ${owner.token}` },
      payload: story.payload,
    })
  ).json().id;
  shared = await fixture(false);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

/** What each row works on, made fresh for the row: the owner's draft and published books, a note, a feed address. */
interface Fixture {
  draftBook: number;
  draftChapter: number;
  book: number;
  chapter: number;
  note: number;
  /** The owner's comment on the published chapter, with a report of it by the other user. */
  comment: number;
  report: number;
  /** The owner's comment on their draft chapter. */
  draftComment: number;
  feedToken: string;
  /** Sessions of the row's own, for rows that end them. */
  tokens: { owner: string; other: string };
}

async function fixture(freshSessions: boolean): Promise<Fixture> {
  const unique = Math.random().toString(36).slice(2, 8);
  const draft = await createBook(t.app, owner, `Draft ${unique}`);
  const draftChapter = await createChapter(t.app, owner, draft.id, { title: 'Draft chapter' });
  const book = await createBook(t.app, owner, `Published ${unique}`, { published: true });
  const chapter = await createChapter(
    t.app,
    owner,
    book.id,
    { title: 'Public chapter' },
    { published: true },
  );
  await as(t.app, owner).post(`/api/books/${book.id}/genres`, { genre_id: 1 });
  await as(t.app, owner).post(`/api/books/${book.id}/chapters/${chapter.id}/history`);
  const note = await as(t.app, owner).post('/api/my/notes', { book_id: book.id, body: 'mine' });
  const feed = await as(t.app, owner).post('/api/my/feed-token');
  // Each has a bystander blocked and muted, for the rows that take one off (a repeat is a no-op).
  for (const user of [owner, other])
    for (const list of ['blocks', 'mutes'])
      await as(t.app, user).post(`/api/my/${list}`, { username: bystander.username });
  const comment = (
    await as(t.app, owner).post(`/api/chapters/${chapter.id}/comments`, { body: 'First!' })
  ).json().id as number;
  const draftComment = (
    await as(t.app, owner).post(`/api/chapters/${draftChapter.id}/comments`, { body: 'Note' })
  ).json().id as number;
  await as(t.app, other).post(`/api/comments/${comment}/report`, { reason: 'rude' });
  const reports = (await as(t.app, owner).get('/api/admin/reports')).json().reports as {
    id: number;
    comment: { id: number };
  }[];
  const login = async (user: TestUser) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/token',
        payload: { username: user.username, password: user.password },
      })
    ).json().access_token as string;
  return {
    draftBook: draft.id,
    draftChapter: draftChapter.id,
    book: book.id,
    chapter: chapter.id,
    note: note.json().id,
    comment,
    draftComment,
    report: reports.find((r) => r.comment.id === comment)!.id,
    feedToken: /\/api\/feeds\/([\w-]+)\.atom$/.exec(feed.json().url)?.[1] ?? 'none',
    tokens: freshSessions
      ? { owner: await login(owner), other: await login(other) }
      : { owner: owner.token, other: other.token },
  };
}

type Who = 'anonymous' | 'other' | 'owner';
/** An HTTP status, or for a WebSocket: 'open' (admitted) or the close code it was refused with. */
type Outcome = number | 'open';

interface Call {
  url: string;
  payload?: unknown;
  /** Send a file as multipart: an image in field "image", or a story to import in field "file". */
  file?: 'image' | 'story';
}

interface Row {
  call: (f: Fixture, who: Who) => Call;
  /** Anonymous, another signed-in user, the owner of what the URL names. */
  expect: [Outcome, Outcome, Outcome];
  /** The call ends sessions: the row gets sessions of its own. */
  freshSessions?: boolean;
  /** A read that other rows could spoil (the feed address is rotated by its own rows): a fixture of its own. */
  ownFixture?: boolean;
}

const same = (outcome: Outcome): [Outcome, Outcome, Outcome] => [outcome, outcome, outcome];
const get =
  (url: (f: Fixture) => string) =>
  (f: Fixture): Call => ({ url: url(f) });
const body =
  (url: (f: Fixture) => string, payload: (f: Fixture, who: Who) => unknown) =>
  (f: Fixture, who: Who): Call => ({
    url: url(f),
    payload: payload(f, who),
  });
let signups = 0;

/** `METHOD url` -> how to call it and what each caller must get. HEAD rows are checked through their GET row. */
const MATRIX: Record<string, Row> = {
  // Infrastructure and documentation: public.
  'GET /healthz': { call: get(() => '/healthz'), expect: same(200) },
  'GET /readyz': { call: get(() => '/readyz'), expect: same(200) },
  // Only for a scraper holding METRICS_TOKEN, which this server has not (observability.test.ts).
  'GET /metrics': { call: get(() => '/metrics'), expect: same(404) },
  'GET /api/openapi.json': { call: get(() => '/api/openapi.json'), expect: same(200) },
  'GET /api/docs/': { call: get(() => '/api/docs/'), expect: same(200) },
  'GET /api/docs/js/scalar.js': { call: get(() => '/api/docs/js/scalar.js'), expect: same(200) },
  'GET /uploads/:name': { call: get(() => uploadHref), expect: same(200) },
  // CORS preflights: no origin is allowed by default, so there is no preflight route to match.
  'OPTIONS *': { call: get(() => '/api/books'), expect: same(404) },

  // Session.
  'POST /api/authors': {
    call: body(
      () => '/api/authors',
      () => ({
        username: `matrix_${process.pid % 1000}_${++signups}`,
        password: 'correct horse battery',
      }),
    ),
    expect: same(201),
  },
  'POST /token': {
    call: body(
      () => '/token',
      () => ({ username: owner.username, password: owner.password }),
    ),
    expect: same(200),
  },
  'GET /token': { call: get(() => '/token'), expect: same(200) },
  'DELETE /token': { call: get(() => '/token'), expect: same(200), freshSessions: true },
  // A ticket to open a socket: for whoever is signed in.
  'POST /api/socket-tickets': { call: get(() => '/api/socket-tickets'), expect: [401, 201, 201] },

  // Authors.
  'GET /api/authors': { call: get(() => '/api/authors'), expect: same(200) },
  'GET /api/authors/:id': { call: get(() => `/api/authors/${owner.id}`), expect: same(200) },
  'PUT /api/authors/:id': {
    call: body(
      () => `/api/authors/${owner.id}`,
      () => ({ biography: '<p>changed</p>' }),
    ),
    expect: [401, 403, 200],
  },
  'POST /api/authors/avatar': {
    call: () => ({ url: '/api/authors/avatar', file: 'image' }),
    expect: [401, 200, 200],
  },
  'GET /api/authors/:id/chapters': {
    call: get(() => `/api/authors/${owner.id}/chapters`),
    expect: same(200),
  },
  'GET /api/authors/:id/books': {
    call: get(() => `/api/authors/${owner.id}/books`),
    expect: same(200),
  },
  'GET /api/my/reader-settings': {
    call: get(() => '/api/my/reader-settings'),
    expect: [401, 200, 200],
  },
  'PUT /api/my/reader-settings': {
    call: body(
      () => '/api/my/reader-settings',
      () => ({ theme: 'dark' }),
    ),
    expect: [401, 200, 200],
  },

  // Books: drafts are the owner's alone.
  'GET /api/books': { call: get(() => '/api/books'), expect: same(200) },
  'POST /api/books': {
    call: body(
      () => '/api/books',
      (_f, who) => ({ title: `New by ${who} ${Math.random()}` }),
    ),
    expect: [401, 201, 201],
  },
  'GET /api/books/search': { call: get(() => '/api/books/search?q=draft'), expect: same(200) },
  'GET /api/books/genres/:genre': {
    call: get(() => '/api/books/genres/Fantasy'),
    expect: same(200),
  },
  'GET /api/recent/books': { call: get(() => '/api/recent/books'), expect: same(200) },
  'GET /api/popular/books': { call: get(() => '/api/popular/books'), expect: same(200) },
  'GET /api/my/books': { call: get(() => '/api/my/books'), expect: [401, 200, 200] },
  'GET /api/books/:id': { call: get((f) => `/api/books/${f.draftBook}`), expect: [404, 404, 200] },
  'PUT /api/books/:id': {
    call: body(
      (f) => `/api/books/${f.book}`,
      () => ({ title: 'Renamed', summary: '', is_published: true }),
    ),
    expect: [401, 403, 200],
  },
  'DELETE /api/books/:id': { call: get((f) => `/api/books/${f.book}`), expect: [401, 403, 200] },
  'POST /api/books/:id/cover': {
    call: (f) => ({ url: `/api/books/${f.book}/cover`, file: 'image' }),
    expect: [401, 403, 200],
  },
  'GET /api/genres': { call: get(() => '/api/genres'), expect: same(200) },
  'GET /api/books/:id/genres': {
    call: get((f) => `/api/books/${f.draftBook}/genres`),
    expect: [404, 404, 200],
  },
  'POST /api/books/:id/genres': {
    call: body(
      (f) => `/api/books/${f.book}/genres`,
      () => ({ genre_id: 2 }),
    ),
    expect: [401, 403, 201],
  },
  'DELETE /api/books/:id/genres': {
    call: body(
      (f) => `/api/books/${f.book}/genres`,
      () => ({ genre_id: 1 }),
    ),
    expect: [401, 403, 200],
  },
  'GET /api/books/:id/export.epub': {
    call: get((f) => `/api/books/${f.draftBook}/export.epub`),
    expect: [404, 404, 200],
  },
  'GET /api/books/:id/feed.atom': {
    call: get((f) => `/api/books/${f.draftBook}/feed.atom`),
    expect: same(404),
  },
  'GET /api/authors/:id/feed.atom': {
    call: get(() => `/api/authors/${owner.id}/feed.atom`),
    expect: same(200),
  },
  'GET /api/feeds/:token.atom': {
    call: get((f) => `/api/feeds/${f.feedToken}.atom`),
    expect: same(200),
    ownFixture: true,
  },
  'GET /api/my/feed-token': { call: get(() => '/api/my/feed-token'), expect: [401, 200, 200] },
  'POST /api/my/feed-token': { call: get(() => '/api/my/feed-token'), expect: [401, 201, 201] },
  'DELETE /api/my/feed-token': { call: get(() => '/api/my/feed-token'), expect: [401, 200, 200] },

  // Chapters.
  'GET /api/authors/books/:bookId/chapters': {
    call: get((f) => `/api/authors/books/${f.draftBook}/chapters`),
    expect: [401, 404, 200],
  },
  'GET /api/books/:id/chapters': {
    call: get((f) => `/api/books/${f.draftBook}/chapters`),
    expect: [404, 404, 200],
  },
  'POST /api/books/:id/chapters': {
    call: body(
      (f) => `/api/books/${f.book}/chapters`,
      () => ({ title: 'Another' }),
    ),
    expect: [401, 403, 201],
  },
  'PUT /api/books/:id/chapters': {
    call: body(
      (f) => `/api/books/${f.book}/chapters`,
      (f) => ({ chapters: [{ id: f.chapter, chapter_order: 1 }] }),
    ),
    expect: [401, 403, 200],
  },
  'GET /api/chapters/:id': {
    call: get((f) => `/api/chapters/${f.draftChapter}`),
    expect: [404, 404, 200],
  },
  'PUT /api/books/:bookId/chapters/:chapterId': {
    call: body(
      (f) => `/api/books/${f.book}/chapters/${f.chapter}`,
      () => ({ content: '<p>edited</p>' }),
    ),
    expect: [401, 403, 200],
  },
  'DELETE /api/chapters/:id': {
    call: get((f) => `/api/chapters/${f.chapter}`),
    expect: [401, 403, 200],
  },

  // Comments (issue 19): anyone reads what they may see; a comment is its writer's to edit and
  // its writer's, the book's author's or an operator's to delete. The owner is an operator.
  'GET /api/chapters/:id/comments': {
    call: get((f) => `/api/chapters/${f.draftChapter}/comments`),
    expect: [404, 404, 200],
  },
  'GET /api/chapters/:id/comment-counts': {
    call: get((f) => `/api/chapters/${f.draftChapter}/comment-counts`),
    expect: [404, 404, 200],
  },
  'GET /api/comments/:commentId/replies': {
    call: get((f) => `/api/comments/${f.draftComment}/replies`),
    expect: [404, 404, 200],
  },
  'POST /api/chapters/:id/comments': {
    call: body(
      (f) => `/api/chapters/${f.chapter}/comments`,
      () => ({ body: 'Hello' }),
    ),
    expect: [401, 201, 201],
  },
  'PUT /api/comments/:commentId': {
    call: body(
      (f) => `/api/comments/${f.comment}`,
      () => ({ body: 'Edited' }),
    ),
    expect: [401, 403, 200],
  },
  'DELETE /api/comments/:commentId': {
    call: get((f) => `/api/comments/${f.comment}`),
    expect: [401, 403, 200],
  },
  'POST /api/comments/:commentId/like': {
    call: get((f) => `/api/comments/${f.draftComment}/like`),
    expect: [401, 404, 200],
  },
  'DELETE /api/comments/:commentId/like': {
    call: get((f) => `/api/comments/${f.draftComment}/like`),
    expect: [401, 404, 200],
  },
  // Reporting one's own comment is refused.
  'POST /api/comments/:commentId/report': {
    call: body(
      (f) => `/api/comments/${f.comment}/report`,
      () => ({ reason: 'spam' }),
    ),
    expect: [401, 201, 400],
  },
  'POST /api/chapters/:id/like': {
    call: get((f) => `/api/chapters/${f.draftChapter}/like`),
    expect: [401, 404, 200],
  },
  'DELETE /api/chapters/:id/like': {
    call: get((f) => `/api/chapters/${f.draftChapter}/like`),
    expect: [401, 404, 200],
  },
  'GET /api/admin/reports': { call: get(() => '/api/admin/reports'), expect: [401, 403, 200] },
  'POST /api/admin/reports/:reportId/dismiss': {
    call: get((f) => `/api/admin/reports/${f.report}/dismiss`),
    expect: [401, 403, 200],
  },
  'POST /api/admin/users/:username/suspend': {
    call: get(() => `/api/admin/users/${bystander.username}/suspend`),
    expect: [401, 403, 200],
  },
  'POST /api/admin/users/:username/unsuspend': {
    call: get(() => `/api/admin/users/${bystander.username}/unsuspend`),
    expect: [401, 403, 200],
  },

  // History and follows: every signed-in reader has their own.
  'POST /api/books/:bookId/chapters/:chapterId/history': {
    call: get((f) => `/api/books/${f.draftBook}/chapters/${f.draftChapter}/history`),
    expect: [401, 404, 201],
  },
  'GET /api/my/history': { call: get(() => '/api/my/history'), expect: [401, 200, 200] },
  'DELETE /api/chapters/:chapterId/history': {
    call: get((f) => `/api/chapters/${f.chapter}/history`),
    expect: [401, 404, 200],
  },
  'GET /api/my/follows': { call: get(() => '/api/my/follows'), expect: [401, 200, 200] },
  'GET /api/authors/:id/is-following': {
    call: get(() => `/api/authors/${owner.id}/is-following`),
    expect: [401, 200, 200],
  },
  'POST /api/follows': {
    call: body(
      () => '/api/follows',
      () => ({ author_id: owner.id }),
    ),
    expect: [401, 201, 400],
  },
  // Unfollowing someone one does not follow is a no-op; unfollowing oneself names no follow at all.
  'DELETE /api/follows': {
    call: body(
      () => '/api/follows',
      () => ({ author_id: owner.id }),
    ),
    expect: [401, 200, 404],
  },
  // Follows of books (issue 19): a draft is not there for others; one's own book cannot be followed.
  'POST /api/books/:id/follow': {
    call: get((f) => `/api/books/${f.draftBook}/follow`),
    expect: [401, 404, 400],
  },
  'DELETE /api/books/:id/follow': {
    call: get((f) => `/api/books/${f.draftBook}/follow`),
    expect: [401, 404, 200],
  },
  'GET /api/my/followed-books': {
    call: get(() => '/api/my/followed-books'),
    expect: [401, 200, 200],
  },
  // The viewer's own block list (issue 19): nobody can put themselves on it.
  'GET /api/my/blocks': { call: get(() => '/api/my/blocks'), expect: [401, 200, 200] },
  'POST /api/my/blocks': {
    call: body(
      () => '/api/my/blocks',
      (_f, who) => ({ username: who === 'owner' ? owner.username : bystander.username }),
    ),
    expect: [401, 200, 400],
  },
  'DELETE /api/my/blocks/:username': {
    call: get(() => `/api/my/blocks/${bystander.username}`),
    expect: [401, 200, 200],
  },
  // The viewer's own mute list (issue 19): nobody can put themselves on it.
  'GET /api/my/mutes': { call: get(() => '/api/my/mutes'), expect: [401, 200, 200] },
  'POST /api/my/mutes': {
    call: body(
      () => '/api/my/mutes',
      (_f, who) => ({ username: who === 'owner' ? owner.username : bystander.username }),
    ),
    expect: [401, 200, 400],
  },
  'DELETE /api/my/mutes/:username': {
    call: get(() => `/api/my/mutes/${bystander.username}`),
    expect: [401, 200, 200],
  },
  'GET /api/home/authors': { call: get(() => '/api/home/authors'), expect: same(200) },
  'GET /api/my/notifications': {
    call: get(() => '/api/my/notifications'),
    expect: [401, 200, 200],
  },
  'POST /api/my/notifications/read': {
    call: body(
      () => '/api/my/notifications/read',
      () => ({}),
    ),
    expect: [401, 200, 200],
  },

  // Library, reading progress and notes: private to each reader; drafts stay invisible.
  'GET /api/my/library': { call: get(() => '/api/my/library'), expect: [401, 200, 200] },
  'GET /api/my/library/:bookId': {
    call: get((f) => `/api/my/library/${f.draftBook}`),
    expect: [401, 404, 200],
  },
  'PUT /api/my/library/:bookId': {
    call: body(
      (f) => `/api/my/library/${f.draftBook}`,
      () => ({ status: 'reading' }),
    ),
    expect: [401, 404, 200],
  },
  'GET /api/my/progress/:bookId': {
    call: get((f) => `/api/my/progress/${f.draftBook}`),
    expect: [401, 404, 200],
  },
  'PUT /api/my/progress/:bookId': {
    call: body(
      (f) => `/api/my/progress/${f.draftBook}`,
      (f) => ({ chapter_id: f.draftChapter, paragraph: 0, offset: 0 }),
    ),
    expect: [401, 404, 200],
  },
  'GET /api/my/notes': { call: get(() => '/api/my/notes'), expect: [401, 200, 200] },
  'POST /api/my/notes': {
    call: body(
      () => '/api/my/notes',
      (f) => ({ book_id: f.draftBook, body: 'hidden?' }),
    ),
    expect: [401, 404, 201],
  },
  'GET /api/my/notes/:id': { call: get((f) => `/api/my/notes/${f.note}`), expect: [401, 404, 200] },
  'PUT /api/my/notes/:id': {
    call: body(
      (f) => `/api/my/notes/${f.note}`,
      () => ({ body: 'changed' }),
    ),
    expect: [401, 404, 200],
  },
  'DELETE /api/my/notes/:id': {
    call: get((f) => `/api/my/notes/${f.note}`),
    expect: [401, 404, 200],
  },

  // Imports: a job is its owner's alone.
  'POST /api/imports': {
    call: () => ({ url: '/api/imports', file: 'story' }),
    expect: [401, 202, 202],
  },
  'POST /api/imports/preview': {
    call: () => ({ url: '/api/imports/preview', file: 'story' }),
    expect: [401, 200, 200],
  },
  'GET /api/imports': { call: get(() => '/api/imports'), expect: [401, 200, 200] },
  'GET /api/imports/:id': { call: get(() => `/api/imports/${importJob}`), expect: [401, 404, 200] },

  // Live connections: a token is required; the notification stream is the caller's own, any reader
  // may join a room but one the author blocked (4403: blocks.test.ts).
  'GET /ws': { call: get(() => '/ws'), expect: [WS_CLOSE.unauthorized, 'open', 'open'] },
  'GET /chat/:username': {
    call: get(() => `/chat/${owner.username}`),
    expect: [WS_CLOSE.unauthorized, 'open', 'open'],
  },
  // Issue 21: the warning list and tag suggestions are public; saved exclusions are one's own.
  'GET /api/warnings': { call: get(() => '/api/warnings'), expect: same(200) },
  'GET /api/tags': { call: get(() => '/api/tags?q=a'), expect: same(200) },
  'GET /api/my/filters': { call: get(() => '/api/my/filters'), expect: [401, 200, 200] },
  'PUT /api/my/filters': {
    call: body(
      () => '/api/my/filters',
      () => ({ exclude_ratings: ['explicit'] }),
    ),
    expect: [401, 200, 200],
  },
};

async function attempt(route: Route, row: Row, f: Fixture, who: Who): Promise<Outcome> {
  const call = row.call(f, who);
  const token = who === 'anonymous' ? undefined : f.tokens[who];
  if (route.websocket && route.method === 'GET') {
    const socket = await connect(`${base}${call.url}${token ? `?token=${token}` : ''}`);
    const outcome = await Promise.race([
      socket.closed.then((closed) => closed.code),
      new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 300)),
    ]);
    await socket.close();
    return outcome;
  }
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: unknown = call.payload;
  if (call.file) {
    const form =
      call.file === 'image'
        ? multipart('image', await makeImage('png', 40, 40), 'a.png', 'image/png')
        : multipart('file', Buffer.from('# Imported\n\nText.\n'), 'story.md', 'text/markdown');
    Object.assign(headers, form.headers);
    payload = form.payload;
  }
  const res: LightMyRequestResponse = await t.app.inject({
    method: route.method as 'GET',
    url: call.url,
    headers,
    ...(payload !== undefined && { payload: payload as string }),
  });
  return res.statusCode;
}

const key = (route: Route) => `${route.method} ${route.url}`;
/** HEAD routes mirror a GET route (Fastify adds them); they are checked with the GET row. */
const rowFor = (route: Route) =>
  MATRIX[key(route)] ?? (route.method === 'HEAD' ? MATRIX[`GET ${route.url}`] : undefined);

describe(`authorization matrix from the route table (${testEngine()})`, () => {
  it('has a row for every route of the app, and no row for a route that is gone', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((route) => !rowFor(route)).map(key), 'routes missing from MATRIX').toEqual(
      [],
    );
    const present = new Set(routes.map(key));
    expect(
      Object.keys(MATRIX).filter((k) => !present.has(k)),
      'MATRIX rows for routes that do not exist',
    ).toEqual([]);
  });

  it('refuses a visitor with 401 on every route documented as (auth)', () => {
    const secured = routes.filter((route) => route.secured);
    expect(secured.length).toBeGreaterThan(20);
    expect(secured.filter((route) => rowFor(route)?.expect[0] !== 401).map(key)).toEqual([]);
  });

  it('gives every caller what the table says, on every route', { timeout: 120_000 }, async () => {
    const mismatches: string[] = [];
    for (const route of routes) {
      const row = rowFor(route);
      if (!row) continue;
      const expected = route.method === 'HEAD' && route.websocket ? same(404) : row.expect;
      const readOnly =
        (route.method === 'GET' || route.method === 'HEAD') &&
        !row.freshSessions &&
        !row.ownFixture;
      const f = readOnly ? shared : await fixture(row.freshSessions ?? false);
      const got: Outcome[] = [];
      // The owner goes last: their call may change or delete what the others were refused.
      for (const who of ['anonymous', 'other', 'owner'] as const)
        got.push(await attempt(route, row, f, who));
      const want = route.method === 'HEAD' ? expected.map((o) => (o === 201 ? 200 : o)) : expected;
      if (JSON.stringify(got) !== JSON.stringify(want))
        mismatches.push(`${key(route)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
    expect(mismatches).toEqual([]);
  });
});
