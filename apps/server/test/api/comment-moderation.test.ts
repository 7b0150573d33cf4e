import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { closeAllSockets, closing, connect, listen } from '../helpers/ws.ts';

/**
 * Issue 19, reports and operators: readers report comments; the operators (ADMIN_USERNAMES)
 * list open reports, dismiss them, delete comments and suspend accounts. A suspended user
 * cannot sign in, and their sessions and sockets end.
 */
let t: TestApp;
let base: string;
let operator: TestUser;
const OPERATOR = `mod_${process.pid % 1000}`;

beforeAll(async () => {
  // The operator's name in another case: operators are compared without case.
  t = await createTestApp({ ADMIN_USERNAMES: `someone_else, ${OPERATOR.toUpperCase()}` });
  base = await listen(t.app);
  operator = await signup(t.app, OPERATOR);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

describe('who is an operator', () => {
  it('the account answers say is_operator, for the ADMIN_USERNAMES in any case and no one else', async () => {
    const reader = await signup(t.app);
    const accountOf = async (user: TestUser) => {
      const res = await as(t.app, user).get('/token');
      expect(res.statusCode).toBe(200);
      return res.json().account as { username: string; is_operator: boolean };
    };
    expect(await accountOf(operator)).toMatchObject({ username: OPERATOR, is_operator: true });
    expect((await accountOf(reader)).is_operator).toBe(false);
    // The profile edit answers the account too.
    const edited = await as(t.app, operator).put(`/api/authors/${operator.id}`, {
      first_name: 'Mod',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().is_operator).toBe(true);
  });

  it("refuses a rename into an operator's name, and an operator's rename", async () => {
    const reader = await signup(t.app);
    const into = await as(t.app, reader).put(`/api/authors/${reader.id}`, {
      username: 'Someone_Else',
    });
    expect(into.statusCode).toBe(400);
    expect(into.json().detail).toMatch(/operator/);
    const away = await as(t.app, operator).put(`/api/authors/${operator.id}`, {
      username: `${OPERATOR}_x`,
    });
    expect(away.statusCode).toBe(400);
    const token = await as(t.app, operator).get('/token');
    expect(token.json().account).toMatchObject({ username: OPERATOR, is_operator: true });
  });
});

async function commentedChapter() {
  const author = await signup(t.app);
  const book = await createBook(t.app, author, `Moderated ${author.username}`, { published: true });
  const chapter = await createChapter(t.app, author, book.id, { title: 'Ch' }, { published: true });
  const writer = await signup(t.app);
  const res = await as(t.app, writer).post(`/api/chapters/${chapter.id}/comments`, {
    body: 'rude words',
  });
  expect(res.statusCode).toBe(201);
  return { author, book, chapter, writer, comment: res.json() as { id: number } };
}

type Report = { id: number; comment: { id: number }; [field: string]: unknown };
const openReports = async (): Promise<Report[]> => {
  const res = await as(t.app, operator).get('/api/admin/reports');
  expect(res.statusCode).toBe(200);
  return res.json().reports;
};

const login = (user: TestUser) =>
  t.app.inject({
    method: 'POST',
    url: '/token',
    payload: { username: user.username, password: user.password },
  });

describe('reports', () => {
  it('files one open report per reporter and comment, also when two arrive at once', async () => {
    const { comment } = await commentedChapter();
    const reporter = await signup(t.app);
    const sent = await Promise.all(
      [1, 2, 3].map((n) =>
        as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: `why ${n}` }),
      ),
    );
    for (const res of sent) expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await openReports()).filter((r) => r.comment.id === comment.id)).toHaveLength(1);
  });

  it('files a report (201) that operators see with the comment and where it is', async () => {
    const { author, book, chapter, writer, comment } = await commentedChapter();
    const reporter = await signup(t.app);
    const res = await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, {
      reason: 'insults',
    });
    expect(res.statusCode).toBe(201);
    // A repeat while the report is open files nothing more.
    await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: 'again' });
    const mine = (await openReports()).filter((r) => r.comment.id === comment.id);
    expect(mine).toEqual([
      {
        id: expect.any(Number),
        reason: 'insults',
        created_at: expect.any(String),
        reporter: reporter.username,
        comment: expect.objectContaining({
          id: comment.id,
          body: 'rude words',
          chapter_id: chapter.id,
        }),
        book_id: book.id,
        book_title: `Moderated ${author.username}`,
        chapter_title: 'Ch',
        author_username: writer.username,
        author_suspended: false,
      },
    ]);
  });

  it('refuses a report without a reason, of one’s own comment, or of a comment one cannot see', async () => {
    const { author, book, writer, comment } = await commentedChapter();
    const reporter = await signup(t.app);
    expect(
      (await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: ' ' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await as(t.app, writer).post(`/api/comments/${comment.id}/report`, { reason: 'me' }))
        .statusCode,
    ).toBe(400);
    const draft = await createChapter(t.app, author, book.id, { title: 'Draft' });
    const hidden = await as(t.app, author).post(`/api/chapters/${draft.id}/comments`, {
      body: 'draft note',
    });
    expect(
      (await as(t.app, reporter).post(`/api/comments/${hidden.json().id}/report`, { reason: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await as(t.app).post(`/api/comments/${comment.id}/report`, { reason: 'x' })).statusCode,
    ).toBe(401);
  });

  it('lets only operators list and dismiss reports (403 to everyone else)', async () => {
    const { author, comment } = await commentedChapter();
    const reporter = await signup(t.app);
    await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: 'spam' });
    const report = (await openReports()).find((r) => r.comment.id === comment.id)!;
    for (const user of [reporter, author]) {
      const listed = await as(t.app, user).get('/api/admin/reports');
      expect(listed.statusCode).toBe(403);
      expect(listed.json()).toEqual({ detail: 'Only operators may do this', code: 'forbidden' });
      expect(
        (await as(t.app, user).post(`/api/admin/reports/${report.id}/dismiss`)).statusCode,
      ).toBe(403);
    }
    expect((await as(t.app).get('/api/admin/reports')).statusCode).toBe(401);

    const dismissed = await as(t.app, operator).post(`/api/admin/reports/${report.id}/dismiss`);
    expect(dismissed.statusCode).toBe(200);
    expect((await openReports()).map((r) => r.id)).not.toContain(report.id);
    // The comment stays.
    expect((await as(t.app).get(`/api/comments/${comment.id}/replies`)).statusCode).toBe(200);
    expect(
      (await as(t.app, operator).post(`/api/admin/reports/${report.id}/dismiss`)).statusCode,
    ).toBe(404);
  });

  it('lets an operator delete any comment, which resolves its reports', async () => {
    const { chapter, comment } = await commentedChapter();
    const reporter = await signup(t.app);
    await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: 'abuse' });
    expect((await openReports()).some((r) => r.comment.id === comment.id)).toBe(true);
    expect((await as(t.app, operator).delete(`/api/comments/${comment.id}`)).statusCode).toBe(200);
    expect((await openReports()).some((r) => r.comment.id === comment.id)).toBe(false);
    expect((await as(t.app).get(`/api/chapters/${chapter.id}/comments`)).json().comments).toEqual(
      [],
    );
  });

  it('resolves the reports of a placeholder left by an operator’s delete', async () => {
    const { chapter, comment } = await commentedChapter();
    const replier = await signup(t.app);
    await as(t.app, replier).post(`/api/chapters/${chapter.id}/comments`, {
      body: 'a reply',
      parent_id: comment.id,
    });
    await as(t.app, replier).post(`/api/comments/${comment.id}/report`, { reason: 'abuse' });
    expect((await as(t.app, operator).delete(`/api/comments/${comment.id}`)).statusCode).toBe(200);
    expect((await openReports()).some((r) => r.comment.id === comment.id)).toBe(false);
    expect(
      (await as(t.app).get(`/api/chapters/${chapter.id}/comments`)).json().comments[0],
    ).toMatchObject({ id: comment.id, deleted: true, user: null, body: '' });
  });
});

describe('suspension', () => {
  it('refuses sign-in with a clear 403, ends the sessions and closes the sockets; unsuspend restores sign-in', async () => {
    const { writer, comment } = await commentedChapter();
    const reporter = await signup(t.app);
    await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: 'troll' });
    const second = (await login(writer)).json().access_token as string;
    const stream = await connect(`${base}/ws?token=${second}`);

    const res = await as(t.app, operator).post(`/api/admin/users/${writer.username}/suspend`);
    expect(res.statusCode).toBe(200);
    expect((await closing(stream)).code).toBe(WS_CLOSE.unauthorized);
    for (const token of [writer.token, second]) {
      expect((await as(t.app, { token }).get('/api/my/books')).statusCode).toBe(401);
    }
    const refused = await login(writer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This account is suspended', code: 'forbidden' });
    // A wrong password still hears the usual 401: a suspension is told only to the owner.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/token',
      payload: { username: writer.username, password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    // Their open reports are dealt with.
    expect((await openReports()).some((r) => r.comment.id === comment.id)).toBe(false);

    expect(
      (await as(t.app, operator).post(`/api/admin/users/${writer.username}/unsuspend`)).statusCode,
    ).toBe(200);
    expect((await login(writer)).statusCode).toBe(200);
  });

  it('is for operators only, not of oneself, and of a user who exists', async () => {
    const [user, target] = [await signup(t.app), await signup(t.app)];
    const refused = await as(t.app, user).post(`/api/admin/users/${target.username}/suspend`);
    expect(refused.statusCode).toBe(403);
    expect((await login(target)).statusCode).toBe(200);
    expect(
      (await as(t.app, operator).post(`/api/admin/users/${operator.username}/suspend`)).statusCode,
    ).toBe(400);
    expect(
      (await as(t.app, operator).post('/api/admin/users/nobody_at_all_here/suspend')).statusCode,
    ).toBe(404);
  });

  it('shows a suspended writer as such in the reports list', async () => {
    const { writer, comment } = await commentedChapter();
    await as(t.app, operator).post(`/api/admin/users/${writer.username}/suspend`);
    const reporter = await signup(t.app);
    await as(t.app, reporter).post(`/api/comments/${comment.id}/report`, { reason: 'later' });
    expect((await openReports()).find((r) => r.comment.id === comment.id)).toMatchObject({
      author_username: writer.username,
      author_suspended: true,
    });
  });
});
