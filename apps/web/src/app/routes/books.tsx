export { BookPage } from '../../features/books/components/BookPage.tsx';
export { BooksPage } from '../../features/books/components/BooksPage.tsx';
export { GenrePage } from '../../features/books/components/GenrePage.tsx';
export { GenresPage } from '../../features/books/components/GenresPage.tsx';
export { SearchPage } from '../../features/books/components/SearchPage.tsx';
