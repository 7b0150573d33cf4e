import { lazy } from 'react';
import { loadChunk } from '../../lib/chunks.ts';
import { ReaderPage as Reader } from '../../features/reader/components/ReaderPage.tsx';

// Its own module: the reader is the page most visits land on, so it carries nothing else. Private
// notes are for signed-in readers only, so their code arrives after the chapter, in its own chunk.
const ChapterNotes = lazy(() =>
  loadChunk(() => import('../../features/notes/components/ChapterNotes.tsx')).then((m) => ({
    default: m.ChapterNotes,
  })),
);

export const ReaderPage = () => <Reader Notes={ChapterNotes} />;
