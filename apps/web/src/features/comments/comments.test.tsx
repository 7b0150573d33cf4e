import type { Comment, CommentList as CommentPage } from '@inkwell/contract';
import { COMMENT_LINK_REL } from '@inkwell/contract/html';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { createMemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { purifyComment, SafeHtml } from '../../components/SafeHtml.tsx';
import { bodyToText, textToBody, wrapSelection } from './body.ts';
import { CommentList } from './components/CommentList.tsx';
import type { CommentViewer } from './components/CommentItem.tsx';
import {
  expectLoadMoreKeepsFocus,
  expectLoadMoreLeavesMovedFocus,
  holdPage,
} from '../../../test/load-more.ts';
import { renderRouter } from '../../../test/render.tsx';

const comment = (id: number, changes: Partial<Comment> = {}): Comment => ({
  id,
  chapter_id: 7,
  parent_id: null,
  paragraph: null,
  body: `<p>comment ${id}</p>`,
  user: { id: 2, username: 'bea', first_name: 'Bea', last_name: 'Reader', avatar: null },
  created_at: '2026-01-01T00:00:00Z',
  edited_at: null,
  deleted: false,
  likes: 0,
  liked: false,
  by_author: false,
  reply_count: 0,
  ...changes,
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** Answers fetches with `handler`; records every call as "METHOD path?query". */
function mockApi(handler: Handler) {
  const calls: { call: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push({
      call: `${init?.method ?? 'GET'} ${url.pathname}${url.search}`,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    return handler(url, init);
  });
  return calls;
}

const VIEWER: CommentViewer = { userId: 3, isBookAuthor: false, locked: false };

function renderList(viewer: CommentViewer = VIEWER, paragraph: number | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const heading = createRef<HTMLHeadingElement>();
  const router = createMemoryRouter([
    {
      path: '*',
      element: (
        <>
          <h2 ref={heading} tabIndex={-1}>
            Comments
          </h2>
          <CommentList
            chapterId={7}
            paragraph={paragraph}
            sort="newest"
            viewer={viewer}
            formLabel="Comment on this chapter"
            heading={heading}
          />
        </>
      ),
    },
  ]);
  renderRouter(router, { client });
}

describe('comment bodies (the comment allowlist)', () => {
  it('keeps bold, italic, strike, links and spoilers, and drops images, headings and scripts', () => {
    const html = purifyComment(
      '<h2>head</h2><p><strong>b</strong> <em>i</em> <s>s</s> <img src=x onerror=alert(1)>' +
        '<a href="https://example.com" rel="opener" onclick="x()">l</a>' +
        '<span class="spoiler">secret</span><span class="evil">plain</span>' +
        '<em class="spoiler">not a spoiler</em></p><script>alert(1)</script>',
    );
    const box = document.createElement('div');
    box.innerHTML = html;
    expect(box.querySelector('h2, img, script, [onclick], [onerror]')).toBeNull();
    expect(box.querySelector('strong')?.textContent).toBe('b');
    expect(box.querySelector('a')?.getAttribute('rel')).toBe(COMMENT_LINK_REL);
    const spoiler = box.querySelector('span.spoiler')!;
    expect(spoiler.getAttribute('role')).toBe('button');
    expect(spoiler.getAttribute('tabindex')).toBe('0');
    expect(spoiler.getAttribute('aria-expanded')).toBe('false');
    expect(spoiler.querySelector<HTMLElement>('.spoiler-text')?.hidden).toBe(true);
    expect(spoiler.querySelector('.spoiler-text')?.textContent).toBe('secret');
    expect(box.querySelectorAll('[class]')).toHaveLength(3);
    expect(box.textContent).toContain('plain');
    expect(box.textContent).toContain('not a spoiler');
  });

  it('drops a javascript: link target', () => {
    const box = document.createElement('div');
    box.innerHTML = purifyComment('<a href="javascript:alert(1)">x</a>');
    expect(box.querySelector('a')?.getAttribute('href') ?? null).toBeNull();
  });

  it('shows a spoiler on a click, and another on Enter, with aria-expanded', () => {
    render(
      <SafeHtml
        allow="comment"
        html='<p><span class="spoiler">one</span> and <span class="spoiler">two <a href="https://x.test/">l</a></span></p>'
      />,
    );
    // Hidden, the text is out of the accessibility tree: both buttons are named "Spoiler".
    const [one, two] = screen.getAllByRole('button', { name: 'Spoiler', expanded: false });
    expect(screen.getByText('one').closest('[hidden]')).not.toBeNull();
    fireEvent.click(one!);
    expect(one!.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('one').closest('[hidden]')).toBeNull();
    expect(one!.textContent).toBe('one');
    expect(two!.getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(two!, { key: 'Enter' });
    // Holding a link, it stops being a button once shown, and the link is reachable.
    expect(two!.hasAttribute('role')).toBe(false);
    expect(screen.getByRole('link', { name: 'l' })).toBeTruthy();
    expect(screen.getAllByRole('button')).toHaveLength(1);
  });
});

describe('the comment box text', () => {
  it('makes paragraphs of blank lines and breaks of newlines, and reads them back', () => {
    const body = textToBody('one\nline\n\n two ');
    expect(body).toBe('<p>one<br>line</p><p>two</p>');
    expect(bodyToText(body)).toBe('one\nline\n\ntwo');
  });

  it('sends typed <, > and & as text and the marks as markup, and reads both back as typed', () => {
    const typed =
      'Tom & Jerry: a<b and c > d, <strong>bold</strong> <span class="spoiler">end</span>';
    const body = textToBody(typed);
    expect(body).toBe(
      '<p>Tom &amp; Jerry: a&lt;b and c &gt; d, <strong>bold</strong> ' +
        '<span class="spoiler">end</span></p>',
    );
    // The server stores exactly this form (its sanitizer escapes text the same way).
    expect(bodyToText(body)).toBe(typed);
  });

  it('wraps the selection in a mark and keeps it selected', () => {
    expect(wrapSelection('a secret b', 2, 8, 'spoiler')).toEqual({
      text: 'a <span class="spoiler">secret</span> b',
      start: 24,
      end: 30,
    });
  });
});

describe('the comment list', () => {
  it('pages with the cursor, shows replies, the author badge, "edited" and deleted placeholders', async () => {
    const calls = mockApi((url) => {
      if (url.pathname === '/api/comments/1/replies')
        return json({ comments: [comment(10, { parent_id: 1, body: '<p>a reply</p>' })] });
      const page: CommentPage = url.searchParams.get('cursor')
        ? { comments: [comment(3, { deleted: true, body: '', user: null })], next_cursor: null }
        : {
            comments: [
              comment(1, { by_author: true, reply_count: 1, edited_at: '2026-01-02T00:00:00Z' }),
              comment(2),
            ],
            next_cursor: 'c2',
          };
      return json(page);
    });
    renderList();
    const [first] = await screen.findAllByRole('article', { name: 'Comment by Bea Reader' });
    expect(within(first!).getByText('Author')).toBeTruthy();
    expect(within(first!).getByText('(edited)')).toBeTruthy();
    expect(calls[0]!.call).toBe('GET /api/chapters/7/comments?sort=newest&limit=20');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('This comment was deleted.')).toBeTruthy();
    expect(calls.map((c) => c.call)).toContain(
      'GET /api/chapters/7/comments?sort=newest&limit=20&cursor=c2',
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: '1 reply' }));
    expect(await screen.findByText('a reply')).toBeTruthy();
  });

  it('shows a like at once from its answer, without asking the list again', async () => {
    const calls = mockApi((url, init) =>
      init?.method === 'POST' && url.pathname === '/api/comments/2/like'
        ? json({ likes: 4, liked: true })
        : json({ comments: [comment(2, { likes: 3 })], next_cursor: null }),
    );
    renderList();
    const like = await screen.findByRole('button', { name: /^Like/ });
    await userEvent.click(like);
    const liked = await screen.findByRole('button', { name: /^Liked/ });
    expect(liked.getAttribute('aria-pressed')).toBe('true');
    expect(within(liked).getByLabelText('4 likes')).toBeTruthy();
    expect(calls.map((c) => c.call)).toEqual([
      'GET /api/chapters/7/comments?sort=newest&limit=20',
      'POST /api/comments/2/like',
    ]);
  });

  it('keeps the draft and says how long to wait when the server answers 429', async () => {
    const calls = mockApi((_url, init) =>
      init?.method === 'POST'
        ? json({ detail: 'too many comments', code: 'rate_limited' }, 429, { 'retry-after': '12' })
        : json({ comments: [], next_cursor: null }),
    );
    renderList(VIEWER, 4);
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
    const box = screen.getByLabelText('Comment on this chapter');
    await userEvent.type(box, 'my words');
    await userEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are commenting too fast, try again in 12 s.',
    );
    expect(box).toHaveProperty('value', 'my words');
    expect(calls.find((c) => c.call.startsWith('POST'))).toEqual({
      call: 'POST /api/chapters/7/comments',
      body: { body: '<p>my words</p>', paragraph: 4 },
    });
  });

  it('clears the box once the comment is taken, and lists it', async () => {
    let posted = false;
    mockApi((_url, init) => {
      if (init?.method === 'POST') {
        posted = true;
        return json(comment(5, { body: '<p>hello</p>' }), 201);
      }
      return json({
        comments: posted ? [comment(5, { body: '<p>hello</p>' })] : [],
        next_cursor: null,
      });
    });
    renderList();
    const box = await screen.findByLabelText('Comment on this chapter');
    await userEvent.type(box, 'hello');
    await userEvent.click(screen.getByRole('button', { name: 'Post comment' }));
    expect(await screen.findByText('hello')).toBeTruthy();
    await waitFor(() => expect(box).toHaveProperty('value', ''));
    // Said, whether or not the new comment is on a page shown; the box is ready for another.
    expect(screen.getByText('Posted.')).toBeTruthy();
    expect(document.activeElement).toBe(box);
    await userEvent.type(box, 'x');
    expect(screen.queryByText('Posted.')).toBeNull();
  });

  it('says comments are closed when locked, and offers no box', async () => {
    mockApi(() => json({ comments: [comment(1)], next_cursor: null }));
    renderList({ ...VIEWER, locked: true });
    expect(await screen.findByText('Comments are closed.')).toBeTruthy();
    expect(screen.queryByLabelText('Comment on this chapter')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reply' })).toBeNull();
  });

  it('lets the writer edit and delete their own, the book author delete, others report', async () => {
    mockApi(() =>
      json({
        comments: [comment(1, { user: { ...comment(1).user!, id: 3 } }), comment(2)],
        next_cursor: null,
      }),
    );
    renderList();
    const [own, other] = await screen.findAllByRole('article');
    expect(within(own!).queryByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(own!).queryByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(own!).queryByRole('button', { name: 'Report' })).toBeNull();
    expect(within(other!).queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(within(other!).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(other!).queryByRole('button', { name: 'Report' })).toBeTruthy();
  });

  it("lets the book's author delete anyone's comment, but edit only their own", async () => {
    mockApi(() => json({ comments: [comment(2)], next_cursor: null }));
    renderList({ ...VIEWER, isBookAuthor: true });
    const other = await screen.findByRole('article');
    expect(within(other).queryByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(other).queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});

/** The viewer's own comment (VIEWER is user 3). */
const own = (id: number, changes: Partial<Comment> = {}) =>
  comment(id, { user: { ...comment(id).user!, id: 3 }, ...changes });

/**
 * A server holding `top` (top-level comments) and `replies` (by thread) that takes posts, edits,
 * deletes (a thread with replies stays as "deleted") and reports.
 */
function commentServer(top: Comment[], replies: Record<number, Comment[]> = {}) {
  let next = 100;
  return mockApi(async (url, init) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    const id = Number(url.pathname.split('/')[3]);
    const thread = (parent: number) => (replies[parent] ??= []);
    const parentOf = (reply: number) => top.find((c) => replies[c.id]?.some((r) => r.id === reply));
    if (method === 'GET' && url.pathname.endsWith('/replies'))
      return json({ comments: thread(id) });
    if (method === 'GET') return json({ comments: top, next_cursor: null });
    if (method === 'POST' && url.pathname.endsWith('/report')) return json({}, 201);
    if (method === 'POST') {
      const made = own(next++, { parent_id: body.parent_id, body: body.body });
      top = top.map((c) =>
        c.id === body.parent_id ? { ...c, reply_count: c.reply_count + 1 } : c,
      );
      thread(body.parent_id).push(made);
      return json(made, 201);
    }
    if (method === 'PUT') {
      top = top.map((c) => (c.id === id ? { ...c, body: body.body } : c));
      return json(top.find((c) => c.id === id));
    }
    // DELETE
    const parent = parentOf(id);
    if (parent) {
      replies[parent.id] = thread(parent.id).filter((r) => r.id !== id);
      top = top.map((c) => (c === parent ? { ...c, reply_count: c.reply_count - 1 } : c));
    } else {
      top = top.flatMap((c) =>
        c.id !== id
          ? [c]
          : c.reply_count > 0
            ? [{ ...c, deleted: true, body: '', user: null }]
            : [],
      );
    }
    return new Response(null, { status: 204 });
  });
}

/** The article of the comment whose text is `text`. */
const articleOf = (text: string) => screen.getByText(text).closest('article')!;

/**
 * The chapter's comments in pages of one, `total` in all: page n brings comment n and is asked for
 * with cursor `cn` (the first with none); the second waits for `release`.
 */
function commentPages(total: number) {
  const { held, release } = holdPage();
  const calls = mockApi(async (url) => {
    const cursor = url.searchParams.get('cursor');
    const page = cursor === null ? 1 : Number(cursor.slice(1));
    if (page === 2) await held;
    return json({ comments: [comment(page)], next_cursor: page < total ? `c${page + 1}` : null });
  });
  const cursors = () =>
    calls.map(({ call }) =>
      new URL(call.slice(call.indexOf(' ') + 1), 'http://localhost').searchParams.get('cursor'),
    );
  return { cursors, release };
}

/** Deletes the comment whose article is `article`, confirming in the dialog. */
async function deleteComment(article: HTMLElement) {
  await userEvent.click(within(article).getByRole('button', { name: 'Delete' }));
  await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
}

describe('keyboard focus in the comments', () => {
  // jsdom has no modal dialogs: opening one just sets `open`, which shows it to the queries.
  beforeAll(() => {
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it('goes to the next comment after a delete, else the previous, else the comment itself if it stays', async () => {
    commentServer([own(1, { reply_count: 1 }), own(2), own(3)], { 1: [comment(10)] });
    renderList();
    await screen.findByText('comment 3');

    await deleteComment(articleOf('comment 2'));
    await waitFor(() => expect(screen.queryByText('comment 2')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(articleOf('comment 3')));

    await deleteComment(articleOf('comment 3'));
    await waitFor(() => expect(document.activeElement).toBe(articleOf('comment 1')));

    // It has a reply: it stays, as deleted, and keeps the focus.
    await deleteComment(articleOf('comment 1'));
    const placeholder = await screen.findByRole('article', { name: 'Deleted comment' });
    await waitFor(() => expect(document.activeElement).toBe(placeholder));
  });

  it('leaves the focus where the reader moved it while the delete was on its way', async () => {
    commentServer([own(1), own(2)]);
    const fetchSpy = vi.mocked(globalThis.fetch);
    const served = fetchSpy.getMockImplementation()!;
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    fetchSpy.mockImplementation(async (input, init) => {
      if (init?.method === 'DELETE') await held;
      return served(input, init);
    });
    renderList();
    await screen.findByText('comment 2');
    await deleteComment(articleOf('comment 1'));
    const elsewhere = document.body.appendChild(document.createElement('button'));
    elsewhere.focus();
    answer();
    await waitFor(() => expect(screen.queryByText('comment 1')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement).toBe(elsewhere);
    elsewhere.remove();
  });

  it('goes to the comment replied to when its last reply is deleted, and to the heading when the list is empty', async () => {
    commentServer([own(1, { reply_count: 1 })], { 1: [own(10, { parent_id: 1 })] });
    renderList();
    await userEvent.click(await screen.findByRole('button', { name: '1 reply' }));
    await deleteComment(await waitFor(() => articleOf('comment 10')));
    await waitFor(() => expect(screen.queryByText('comment 10')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(articleOf('comment 1')));

    await deleteComment(articleOf('comment 1'));
    expect(await screen.findByText('No comments yet.')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Comments' })),
    );
  });

  it('keeps focus on "Load more" while a page loads, and gives it to the first comment of the last page', async () => {
    const { cursors, release } = commentPages(3);
    renderList();
    await expectLoadMoreKeepsFocus({
      label: 'Load more',
      item: articleOf,
      release,
      lastOfPages: ['comment 1', 'comment 2', 'comment 3'],
      firstOfLast: 'comment 3',
      asked: cursors,
      pages: [null, 'c2', 'c3'],
    });
  });

  it('leaves the focus where the reader put it while the last page loaded', async () => {
    const { release } = commentPages(2);
    renderList();
    await expectLoadMoreLeavesMovedFocus({
      label: 'Load more',
      item: articleOf,
      release,
      lastOfPages: ['comment 1', 'comment 2'],
      // Back up to the first comment while the page loads: the focus is the reader's.
      elsewhere: 'comment 1',
    });
  });

  it('goes into the edit box, and back to Edit after Save or Cancel', async () => {
    const calls = commentServer([own(1)]);
    renderList();
    const edit = () => screen.getByRole('button', { name: 'Edit' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const box = screen.getByLabelText('Edit your comment');
    await waitFor(() => expect(document.activeElement).toBe(box));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(edit()));

    await userEvent.click(edit());
    await userEvent.type(screen.getByLabelText('Edit your comment'), ' more');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('comment 1 more')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(edit()));
    expect(calls.some((c) => c.call === 'PUT /api/comments/1')).toBe(true);
  });

  it('goes into the reply box, back to Reply on Cancel, and to the reply once posted', async () => {
    commentServer([comment(1)]);
    renderList();
    const reply = await screen.findByRole('button', { name: 'Reply' });
    await userEvent.click(reply);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText(/^Reply to/)));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(reply));

    await userEvent.click(reply);
    const box = screen.getByLabelText(/^Reply to/);
    await userEvent.type(box, 'my reply');
    await userEvent.click(within(box.closest('form')!).getByRole('button', { name: 'Reply' }));
    const posted = await waitFor(() => articleOf('my reply'));
    await waitFor(() => expect(document.activeElement).toBe(posted));
  });

  it('gives focus back to Report when its dialog closes: Cancel, Escape or a report sent', async () => {
    const calls = commentServer([comment(1)]);
    renderList();
    const report = await screen.findByRole('button', { name: 'Report' });
    const reason = () => screen.getByLabelText('Why should the operators look at it?');

    await userEvent.click(report);
    await userEvent.type(reason(), 'spam');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(report));

    await userEvent.click(report);
    await userEvent.click(reason());
    // Escape on a modal <dialog> is its cancel event (jsdom sends none).
    fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(report));

    await userEvent.click(report);
    await userEvent.type(reason(), 'spam');
    await userEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(report));
    expect(calls.find((c) => c.call === 'POST /api/comments/1/report')?.body).toEqual({
      reason: 'spam',
    });
  });
});
