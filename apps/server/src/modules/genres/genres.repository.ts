import type { DbHandle } from '../../db/kysely.ts';

export async function listGenres(db: DbHandle) {
  return db.selectFrom('genres').select(['id', 'name']).orderBy('id').execute();
}

export async function findGenre(db: DbHandle, id: number) {
  return db.selectFrom('genres').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function listBookGenres(db: DbHandle, bookId: number) {
  return db
    .selectFrom('book_genres')
    .innerJoin('genres', 'genres.id', 'book_genres.genre_id')
    .select(['genres.id', 'genres.name'])
    .where('book_genres.book_id', '=', bookId)
    .orderBy('genres.id')
    .execute();
}

/** Answers false when the genre was already attached. */
export async function attachGenre(db: DbHandle, bookId: number, genreId: number): Promise<boolean> {
  const result = await db
    .insertInto('book_genres')
    .values({ book_id: bookId, genre_id: genreId })
    .onConflict((oc) => oc.columns(['book_id', 'genre_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Answers false when the genre was not attached. */
export async function detachGenre(db: DbHandle, bookId: number, genreId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('book_genres')
    .where('book_id', '=', bookId)
    .where('genre_id', '=', genreId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
