import { BookPage as Book } from '../../features/books/components/BookPage.tsx';
import { ShelfControls } from '../../features/library/components/ShelfControls.tsx';
import { BookNotes } from '../../features/notes/components/BookNotes.tsx';

/** The book page, with the library's status, owned flag and "Continue reading", and the notes. */
export const BookPage = () => <Book Shelf={ShelfControls} Notes={BookNotes} />;
export { BooksPage } from '../../features/books/components/BooksPage.tsx';
export { GenrePage } from '../../features/books/components/GenrePage.tsx';
export { GenresPage } from '../../features/books/components/GenresPage.tsx';
export { SearchPage } from '../../features/books/components/SearchPage.tsx';
