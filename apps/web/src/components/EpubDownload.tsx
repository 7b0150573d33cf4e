import { useState, type MouseEvent, type ReactNode } from 'react';
import { getFile, isApiError } from '../lib/api.ts';
import { url } from '../lib/paths.ts';
import { useToasts } from './toasts.tsx';

/** Said when the server gave no reason of its own (unreachable, or an answer not its own). */
export const EPUB_FAILED = 'Could not download the EPUB. Please try again.';

/** How long the saved file's object URL is kept, for a browser still starting its download. */
const KEEP_FILE_URL_MS = 10_000;

/** The server's reason for a refused export (a 503 while the book changes, a 429, a 404), if it gave one. */
function failureText(error: unknown): string {
  return isApiError(error) && error.status > 0 && error.code !== undefined && error.detail
    ? error.detail
    : EPUB_FAILED;
}

/** Hands `blob` to the browser to save as `name`, as a click on a download link would. */
function save(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), KEEP_FILE_URL_MS);
}

/**
 * The link to a book's EPUB (GET /api/books/{id}/export.epub). A plain click fetches it and saves
 * it, so that a refusal is told with the server's own words (an error toast): followed as a link,
 * a 503 "the book changed while its EPUB was being made" or a 429 would be a failed download in
 * the browser's list, its reason lost. While the file is made the link is busy (aria-disabled,
 * `preparing` shown); after a failure it is ready again, to try again. A click with a modifier
 * key, or "Save link as", is left to the browser.
 */
export function EpubDownload({
  bookId,
  title,
  className,
  label,
  preparing,
  children,
}: {
  bookId: number;
  /** The book's title: the file's name when the server gives none. */
  title: string;
  className?: string;
  /** The link's accessible name, when its text is not enough (a list of books). */
  label?: string;
  /** Shown instead of `children` while the file is made. */
  preparing: ReactNode;
  children: ReactNode;
}) {
  const { push } = useToasts();
  const [busy, setBusy] = useState(false);
  const path = `/api/books/${bookId}/export.epub`;

  const download = async () => {
    setBusy(true);
    try {
      const file = await getFile(path);
      save(file.blob, file.name ?? `${title}.epub`);
    } catch (error) {
      push(failureText(error), { type: 'ERROR' });
    } finally {
      setBusy(false);
    }
  };

  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // Busy (aria-disabled): no click starts another, a modified one included.
    if (busy) return e.preventDefault();
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void download();
  };

  return (
    <a
      className={className}
      href={url(path)}
      download
      aria-label={label && busy ? `${label}: preparing` : label}
      aria-disabled={busy || undefined}
      onClick={onClick}
    >
      {busy ? preparing : children}
    </a>
  );
}
