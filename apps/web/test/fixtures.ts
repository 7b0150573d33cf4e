import type { Account, AuthorProfile, Book, ChapterSummary } from '@inkwell/contract';
import { vi } from 'vitest';

const CREATED = '2026-01-01T00:00:00Z';

/** A published book as the API answers it, by ann; `Book {id}` unless told otherwise. */
export const bookFixture = (id: number, changes: Partial<Book> = {}): Book => ({
  id,
  title: `Book ${id}`,
  summary: '',
  cover: null,
  is_published: true,
  author_id: 1,
  author_username: 'ann',
  username: 'ann',
  author_first_name: '',
  first_name: '',
  author_last_name: '',
  last_name: '',
  genres: [],
  chapter_count: 1,
  created_at: CREATED,
  updated_at: CREATED,
  published_at: CREATED,
  tags: [],
  warnings: [],
  rating: 'general',
  status: 'ongoing',
  words: 0,
  ...changes,
});

/** A published chapter of `bookId`, as chapter lists answer it. */
export const chapterFixture = (id: number, bookId: number): ChapterSummary => ({
  id,
  book_id: bookId,
  title: `Chapter ${id}`,
  chapter_order: 1,
  is_published: true,
  word_count: 2,
  version: 1,
  created_at: CREATED,
  updated_at: CREATED,
});

/** A signed-in user's account, as GET /token answers it. */
export const accountFixture = (id: number, username: string): Account => ({
  id,
  username,
  first_name: '',
  last_name: '',
  biography: '',
  avatar: null,
  email: '',
  twitter_link: '',
  facebook_link: '',
  instagram_link: '',
  created_at: CREATED,
  is_operator: false,
});

/** An author's public profile, as the API answers it. */
export const authorFixture = (id: number, username: string): AuthorProfile => ({
  id,
  username,
  first_name: '',
  last_name: '',
  biography: '',
  avatar: null,
  twitter_link: '',
  facebook_link: '',
  instagram_link: '',
});

/** A JSON answer of the API (an error when `status` says so). */
export const apiAnswer = (body: unknown, status = 200) => Response.json(body, { status });

/**
 * Stubs fetch for a component test: `answer` answers every call (a promise keeps it on its way).
 * Answers the paths asked, with their query, in order.
 */
export function stubApi(
  answer: (url: URL, init?: RequestInit) => Response | Promise<Response>,
): string[] {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(`${url.pathname}${url.search}`);
    return answer(url, init);
  });
  return calls;
}
