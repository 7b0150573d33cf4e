import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/**
 * Test data, created through the real HTTP API (never the database), as the bearer of each user.
 * Names carry a random suffix: all spec files share one database.
 */
export interface User {
  id: number;
  username: string;
  password: string;
  token: string;
}

/** The app's address on the test server, base path included. */
export const root = () => `${process.env.E2E_ORIGIN}${process.env.E2E_BASE_PATH ?? ''}`;

export const unique = (prefix: string) => `${prefix}_${randomBytes(3).toString('hex')}`;

async function call<T>(
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${root()}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A call to the API as `user` (bearer token); throws on any answer but 2xx. */
export function apiAs<T = unknown>(user: User, method: string, path: string, body?: unknown) {
  return call<T>(method, path, user.token, body);
}

const PASSWORD = 'correct horse 42';

async function signUp(username: string): Promise<User> {
  const created = await call<{ access_token: string; account: { id: number } }>(
    'POST',
    '/api/authors',
    null,
    { username, password: PASSWORD },
  );
  return { id: created.account.id, username, password: PASSWORD, token: created.access_token };
}

/**
 * The account of a fixed username (one a setting names, such as an operator), signed up by the
 * first test that asks; later ones sign in to it.
 */
export async function signUpOnce(username: string): Promise<User> {
  try {
    return await signUp(username);
  } catch {
    const session = await fetch(`${root()}/token`, {
      method: 'POST',
      body: new URLSearchParams({ username, password: PASSWORD }),
    });
    const { access_token } = (await session.json()) as { access_token: string };
    const me = await call<{ account: { id: number } }>('GET', '/token', access_token);
    return { id: me.account.id, username, password: PASSWORD, token: access_token };
  }
}

export async function createUser(
  prefix = 'reader',
  profile: Record<string, string> = {},
): Promise<User> {
  const user = await signUp(unique(prefix));
  if (Object.keys(profile).length)
    await call('PUT', `/api/authors/${user.id}`, user.token, profile);
  return user;
}

export interface BookSpec {
  title?: string;
  summary?: string;
  genres?: string[];
  chapters?: Array<{ title: string; content?: string; publish?: boolean }>;
  publish?: boolean;
  cover?: boolean;
}

export interface CreatedBook {
  id: number;
  title: string;
  chapters: Array<{ id: number; title: string }>;
}

let genreIds: Map<string, number> | null = null;
async function genreId(name: string) {
  genreIds ??= new Map(
    (
      await call<{ genres: Array<{ id: number; name: string }> }>('GET', '/api/genres', null)
    ).genres.map((g) => [g.name, g.id]),
  );
  const id = genreIds.get(name);
  if (!id) throw new Error(`no genre ${name}`);
  return id;
}

export async function createBook(author: User, spec: BookSpec = {}): Promise<CreatedBook> {
  const title = spec.title ?? unique('Book');
  const book = await call<{ id: number }>('POST', '/api/books', author.token, { title });
  await call('PUT', `/api/books/${book.id}`, author.token, {
    summary: spec.summary ?? `The story of ${title}.`,
    is_published: spec.publish ?? true,
  });
  for (const g of spec.genres ?? [])
    await call('POST', `/api/books/${book.id}/genres`, author.token, {
      genre_id: await genreId(g),
    });
  if (spec.cover) await uploadImage(author, `/api/books/${book.id}/cover`);
  const chapters: CreatedBook['chapters'] = [];
  for (const [i, ch] of (spec.chapters ?? []).entries()) {
    chapters.push(await addChapter(author, book.id, { ...ch, order: i + 1 }));
  }
  return { id: book.id, title, chapters };
}

export async function addChapter(
  author: User,
  bookId: number,
  ch: { title: string; content?: string; publish?: boolean; order?: number },
) {
  const created = await call<{ id: number; title: string; chapter_order: number }>(
    'POST',
    `/api/books/${bookId}/chapters`,
    author.token,
    {
      book_id: bookId,
      title: ch.title,
      content: ch.content ?? `<p>${ch.title} begins here.</p><p>And it goes on.</p>`,
      ...(ch.order ? { chapter_order: ch.order } : {}),
    },
  );
  if (ch.publish ?? true) await publishChapter(author, bookId, created.id);
  return { id: created.id, title: created.title };
}

export const publishChapter = (author: User, bookId: number, chapterId: number) =>
  call('PUT', `/api/books/${bookId}/chapters/${chapterId}`, author.token, { is_published: true });

export const follow = (user: User, author: User) =>
  call('POST', '/api/follows', user.token, { author_id: author.id });

export const recordRead = (user: User, bookId: number, chapterId: number) =>
  call('POST', `/api/books/${bookId}/chapters/${chapterId}/history`, user.token, {});

/** A small real PNG, made here so uploads go through the server's image checks. */
export const pngImage = (color = '#4b2e83') =>
  sharp({ create: { width: 64, height: 96, channels: 3, background: color } })
    .png()
    .toBuffer();

async function uploadImage(user: User, path: string) {
  const form = new FormData();
  form.append(
    'image',
    new Blob([new Uint8Array(await pngImage())], { type: 'image/png' }),
    'cover.png',
  );
  const res = await fetch(`${root()}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload ${path} -> ${res.status} ${await res.text()}`);
}
