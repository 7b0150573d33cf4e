// Its own module: the reader is the page most visits land on, so it carries nothing else.
export { ReaderPage } from '../../features/reader/components/ReaderPage.tsx';
