import { ImportPage } from '../../features/imports/components/ImportPage.tsx';
import { LibraryPage as Library } from '../../features/library/components/LibraryPage.tsx';
import { MyNotes } from '../../features/notes/components/MyNotes.tsx';

export { ImportPage };

/** /my/library: the library feature's shelves, with the notes feature's list of every note. */
export const LibraryPage = () => (
  <Library>
    <MyNotes />
  </Library>
);
