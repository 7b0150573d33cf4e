import type { AppContext, Viewer } from '../../context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { announceBookChanged, getOwnedBook, getVisibleBook } from '../books/books.service.ts';
import * as genres from './genres.repository.ts';

export const listGenres = (ctx: AppContext) => genres.listGenres(ctx.db);

export async function listBookGenres(ctx: AppContext, viewer: Viewer | null, bookId: number) {
  await getVisibleBook(ctx, viewer, bookId);
  return genres.listBookGenres(ctx.db, bookId);
}

export async function addBookGenre(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  genreId: number,
) {
  await getOwnedBook(ctx, viewer, bookId);
  if (!(await genres.findGenre(ctx.db, genreId))) throw notFound('Genre not found');
  if (!(await genres.attachGenre(ctx.db, bookId, genreId))) {
    throw conflict('The book already has this genre');
  }
  announceBookChanged(ctx, bookId);
  return genres.listBookGenres(ctx.db, bookId);
}

export async function removeBookGenre(
  ctx: AppContext,
  viewer: Viewer,
  bookId: number,
  genreId: number,
) {
  await getOwnedBook(ctx, viewer, bookId);
  if (!(await genres.detachGenre(ctx.db, bookId, genreId))) {
    throw notFound('The book does not have this genre');
  }
  announceBookChanged(ctx, bookId);
  return genres.listBookGenres(ctx.db, bookId);
}
