import { SafeHtml } from '../../../components/SafeHtml.tsx';
import '../author-note.css';

/**
 * An author's note before or after the chapter (issue 20), set apart from the text and outside
 * it, so it is never one of the chapter's paragraphs (comments, notes and progress count those).
 */
export function AuthorNote({ html }: { html: string | undefined }) {
  if (!html) return null;
  return (
    <aside className="author-note" role="note" aria-label="Author's note">
      <p className="author-note-label" aria-hidden="true">
        Author&rsquo;s note
      </p>
      <SafeHtml className="author-note-body prose" html={html} />
    </aside>
  );
}
