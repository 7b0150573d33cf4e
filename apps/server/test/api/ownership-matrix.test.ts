import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { makeImage, multipart } from '../helpers/images.ts';

/**
 * Every mutating call of the API, tried as a visitor, as another signed-in user and as the owner.
 * Each row gets fresh fixtures, so the owner's successful call never affects another row.
 */
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t.app);
  stranger = await signup(t.app);
});
afterAll(() => t.close());

interface Fixture {
  bookId: number;
  chapterId: number;
}

let titleCounter = 0;
async function fixture(): Promise<Fixture> {
  const book = await createBook(t.app, owner, `Matrix book ${++titleCounter}`, { published: true });
  const chapter = await as(t.app, owner).post(`/api/books/${book.id}/chapters`, {
    book_id: book.id,
    title: 'One',
    content: '<p>text</p>',
    chapter_order: 1,
  });
  expect(chapter.statusCode).toBe(201);
  await as(t.app, owner).put(`/api/books/${book.id}/chapters/${chapter.json().id}`, {
    is_published: true,
  });
  await as(t.app, owner).post(`/api/books/${book.id}/genres`, { genre_id: 3 });
  return { bookId: book.id, chapterId: chapter.json().id };
}

type Caller = TestUser | null;
interface Row {
  name: string;
  call: (who: Caller, f: Fixture) => Promise<{ statusCode: number }>;
  /** What a stranger hears: 403 for owned things they can see. */
  strangerStatus: number;
}

async function uploadCover(who: Caller, f: Fixture) {
  const form = multipart('image', await makeImage('png'), 'cover.png', 'image/png');
  return t.app.inject({
    method: 'POST',
    url: `/api/books/${f.bookId}/cover`,
    headers: { ...form.headers, ...(who && { authorization: `Bearer ${who.token}` }) },
    payload: form.payload,
  });
}

const ROWS: Row[] = [
  {
    name: 'PUT /api/books/{id}',
    call: (w, f) => as(t.app, w).put(`/api/books/${f.bookId}`, { title: `Renamed ${f.bookId}` }),
    strangerStatus: 403,
  },
  {
    name: 'DELETE /api/books/{id}',
    call: (w, f) => as(t.app, w).delete(`/api/books/${f.bookId}`),
    strangerStatus: 403,
  },
  { name: 'POST /api/books/{id}/cover', call: uploadCover, strangerStatus: 403 },
  {
    name: 'POST /api/books/{id}/genres',
    call: (w, f) => as(t.app, w).post(`/api/books/${f.bookId}/genres`, { genre_id: 5 }),
    strangerStatus: 403,
  },
  {
    name: 'DELETE /api/books/{id}/genres',
    call: (w, f) => as(t.app, w).delete(`/api/books/${f.bookId}/genres`, { genre_id: 3 }),
    strangerStatus: 403,
  },
  {
    name: 'POST /api/books/{id}/chapters',
    call: (w, f) =>
      as(t.app, w).post(`/api/books/${f.bookId}/chapters`, {
        book_id: f.bookId,
        title: 'Two',
        content: '',
        chapter_order: 2,
      }),
    strangerStatus: 403,
  },
  {
    name: 'PUT /api/books/{id}/chapters (reorder)',
    call: (w, f) =>
      as(t.app, w).put(`/api/books/${f.bookId}/chapters`, {
        chapters: [{ id: f.chapterId, chapter_order: 1 }],
      }),
    strangerStatus: 403,
  },
  {
    name: 'PUT /api/books/{bookId}/chapters/{chapterId}',
    call: (w, f) =>
      as(t.app, w).put(`/api/books/${f.bookId}/chapters/${f.chapterId}`, {
        content: '<p>changed</p>',
      }),
    strangerStatus: 403,
  },
  {
    name: 'DELETE /api/chapters/{id}',
    call: (w, f) => as(t.app, w).delete(`/api/chapters/${f.chapterId}`),
    strangerStatus: 403,
  },
  {
    name: 'GET /api/authors/books/{bookId}/chapters',
    call: (w, f) => as(t.app, w).get(`/api/authors/books/${f.bookId}/chapters`),
    strangerStatus: 403,
  },
];

describe('ownership matrix', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const f = await fixture();
    const before = (await as(t.app, owner).get(`/api/chapters/${f.chapterId}`)).json();

    expect((await row.call(null, f)).statusCode).toBe(401);
    expect((await row.call(stranger, f)).statusCode).toBe(row.strangerStatus);
    // Neither refused call changed anything.
    expect((await as(t.app, owner).get(`/api/chapters/${f.chapterId}`)).json()).toEqual(before);
    expect((await as(t.app, owner).get(`/api/books/${f.bookId}`)).json().title).toBe(
      `Matrix book ${titleCounter}`,
    );

    const own = await row.call(owner, f);
    expect(own.statusCode).toBeGreaterThanOrEqual(200);
    expect(own.statusCode).toBeLessThan(300);
  });

  it("answers 404 for every write to another author's draft", async () => {
    const draft = await createBook(t.app, owner, `Draft ${++titleCounter}`);
    const chapter = (
      await as(t.app, owner).post(`/api/books/${draft.id}/chapters`, {
        book_id: draft.id,
        title: 'Draft ch',
        content: '',
        chapter_order: 1,
      })
    ).json();
    const f = { bookId: draft.id, chapterId: chapter.id };
    for (const row of ROWS) {
      expect((await row.call(stranger, f)).statusCode, row.name).toBe(404);
    }
  });

  it('lets only the user change their own profile and avatar', async () => {
    const put = (who: Caller) =>
      as(t.app, who).put(`/api/authors/${owner.id}`, { biography: '<p>hijacked</p>' });
    expect((await put(null)).statusCode).toBe(401);
    expect((await put(stranger)).statusCode).toBe(403);
    expect((await put(owner)).statusCode).toBe(200);
    const form = multipart('image', await makeImage('jpeg'), 'a.jpg', 'image/jpeg');
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/authors/avatar',
      headers: form.headers,
      payload: form.payload,
    });
    expect(avatar.statusCode).toBe(401);
  });

  it('keeps history and follows per user', async () => {
    const f = await fixture();
    expect(
      (await as(t.app).post(`/api/books/${f.bookId}/chapters/${f.chapterId}/history`)).statusCode,
    ).toBe(401);
    expect(
      (await as(t.app, stranger).post(`/api/books/${f.bookId}/chapters/${f.chapterId}/history`))
        .statusCode,
    ).toBe(201);
    // The owner deleting "their" history entry for that chapter does not touch the stranger's.
    expect((await as(t.app, owner).delete(`/api/chapters/${f.chapterId}/history`)).statusCode).toBe(
      404,
    );
    const history = (await as(t.app, stranger).get('/api/my/history')).json().read_history;
    expect(history.map((h: { chapter_id: number }) => h.chapter_id)).toContain(f.chapterId);
    expect((await as(t.app).post('/api/follows', { author_id: owner.id })).statusCode).toBe(401);
    expect((await as(t.app).delete('/api/follows', { author_id: owner.id })).statusCode).toBe(401);
  });

  it('keeps book follows and block and mute lists per user (issue 19)', async () => {
    const f = await fixture();
    const follow = (who: Caller) => as(t.app, who).post(`/api/books/${f.bookId}/follow`);
    expect((await follow(null)).statusCode).toBe(401);
    expect((await as(t.app).delete(`/api/books/${f.bookId}/follow`)).statusCode).toBe(401);
    expect((await follow(owner)).statusCode).toBe(400);
    expect((await follow(stranger)).json()).toEqual({
      book_id: f.bookId,
      following: true,
      followers: 1,
    });
    // The owner unfollowing changes nothing of the stranger's follow.
    expect((await as(t.app, owner).delete(`/api/books/${f.bookId}/follow`)).json().followers).toBe(
      1,
    );
    expect((await as(t.app, owner).get('/api/my/followed-books')).json().books).toEqual([]);

    for (const list of ['blocks', 'mutes']) {
      expect((await as(t.app).get(`/api/my/${list}`)).statusCode).toBe(401);
      await as(t.app, stranger).post(`/api/my/${list}`, { username: owner.username });
      // Another user's list is neither shown to nor changed by the owner.
      expect((await as(t.app, owner).get(`/api/my/${list}`)).json().users).toEqual([]);
      expect((await as(t.app, owner).delete(`/api/my/${list}/${owner.username}`)).statusCode).toBe(
        404,
      );
      expect(
        (await as(t.app, stranger).get(`/api/my/${list}`))
          .json()
          .users.map((u: { id: number }) => u.id),
      ).toEqual([owner.id]);
      await as(t.app, stranger).delete(`/api/my/${list}/${owner.username}`);
    }
  });
});
