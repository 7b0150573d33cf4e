import { z } from 'zod';
import { Id } from './common.ts';

/** Seeded by the first migration, ids 1-23 in this order. The web palette is assigned by position. */
export const GENRE_NAMES = [
  'Fiction',
  'Non-Fiction',
  'Science Fiction',
  'Fantasy',
  'Romance',
  'Mystery',
  'Thriller',
  'Biography',
  'Memoir',
  'Action & Adventure',
  'Horror',
  'Historical Fiction',
  'Literature',
  'Contemporary Fiction',
  'Poetry',
  'Young Adult',
  "Children's",
  'Food & Drink',
  'Art & Photography',
  'Self Help',
  'True Crime',
  'Humor',
  'Religion & Spirituality',
] as const;

export const Genre = z.object({ id: z.number(), name: z.string() }).meta({ id: 'Genre' });
export type Genre = z.infer<typeof Genre>;

export const GenresResponse = z.object({ genres: z.array(Genre) }).meta({ id: 'GenresResponse' });

export const BookGenreBody = z.object({ genre_id: Id });
