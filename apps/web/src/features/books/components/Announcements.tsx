import type { Announcement } from '@inkwell/contract';
import {
  ANNOUNCEMENT_BODY_MAX_LENGTH,
  ANNOUNCEMENT_TITLE_MAX_LENGTH,
} from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { SafeHtml } from '../../../components/SafeHtml.tsx';
import '../announcements.css';
import { Loading, Status } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { apiErrorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { overLimit, textToParagraphs, tooLongMessage } from '../../../lib/plainText.ts';
import {
  announcementsQuery,
  useDeleteAnnouncement,
  usePostAnnouncement,
} from '../api/announcements.ts';

function AnnouncementForm({ bookId }: { bookId: number }) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const post = usePostAnnouncement(bookId, {
    onSuccess: () => {
      setTitle('');
      setBody('');
    },
    onError: (err) => setError(apiErrorMessage(err, 'Could not post the announcement.')),
  });

  const bodyOver = overLimit(body, ANNOUNCEMENT_BODY_MAX_LENGTH);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!title.trim() || !body.trim()) {
      setError('Give the announcement a title and a text.');
      return;
    }
    if (bodyOver > 0) {
      setError('Shorten the announcement before posting it.');
      return;
    }
    post.mutate({ title: title.trim(), body: textToParagraphs(body) });
  };

  return (
    <form className="form announcement-form" onSubmit={submit} noValidate>
      <h3>Post an announcement</h3>
      <div className="field">
        <label htmlFor={`${id}-title`}>Announcement title</label>
        <input
          id={`${id}-title`}
          value={title}
          maxLength={ANNOUNCEMENT_TITLE_MAX_LENGTH}
          onChange={(e) => setTitle(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Announcement text</label>
        <textarea
          id={`${id}-body`}
          rows={4}
          value={body}
          aria-invalid={bodyOver > 0 || undefined}
          aria-describedby={bodyOver > 0 ? `${id}-body-long` : undefined}
          onChange={(e) => setBody(e.target.value)}
        />
        {bodyOver > 0 && (
          <p id={`${id}-body-long`} className="form-error">
            {tooLongMessage(bodyOver)}
          </p>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <SubmitButton className="button" busy={post.isPending}>
        {post.isPending ? 'Posting...' : 'Post announcement'}
      </SubmitButton>
    </form>
  );
}

function AnnouncementItem({
  bookId,
  announcement,
  own,
}: {
  bookId: number;
  announcement: Announcement;
  own: boolean;
}) {
  const { push } = useToasts();
  const remove = useDeleteAnnouncement(bookId, {
    onError: () => push('Could not delete the announcement.', { type: 'ERROR' }),
  });
  const headingId = `announcement-${announcement.id}-title`;
  return (
    <li>
      <article
        id={`announcement-${announcement.id}`}
        className="announcement"
        aria-labelledby={headingId}
      >
        <h3 id={headingId}>{announcement.title}</h3>
        <p className="muted">
          <time dateTime={announcement.created_at}>{formatDateTime(announcement.created_at)}</time>
        </p>
        <SafeHtml className="announcement-body prose" html={announcement.body} />
        {own && (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={remove.isPending}
            aria-label={`Delete announcement ${announcement.title}`}
            onClick={() => remove.mutate(announcement.id)}
          >
            Delete
          </button>
        )}
      </article>
    </li>
  );
}

/**
 * The book's announcements (issue 20): posts that are not chapters, newest first. The author
 * posts and deletes them here; followers of the book and of the author are told.
 */
export function Announcements({ bookId, own }: { bookId: number; own: boolean }) {
  const list = useQuery(announcementsQuery(bookId));
  let shown;
  if (list.isPending) shown = <Loading />;
  else if (list.isError) shown = <Status kind="error">Could not load the announcements.</Status>;
  else if (list.data.length === 0) shown = <Status kind="empty">No announcements.</Status>;
  else
    shown = (
      <ul className="announcement-list">
        {list.data.map((a) => (
          <AnnouncementItem key={a.id} bookId={bookId} announcement={a} own={own} />
        ))}
      </ul>
    );
  return (
    <section aria-labelledby="announcements-title" className="book-announcements">
      <h2 id="announcements-title">Announcements</h2>
      {shown}
      {own && <AnnouncementForm bookId={bookId} />}
    </section>
  );
}
