import type { Book, BookRating, BookStatus, WarningId } from '@inkwell/contract';
import {
  BOOK_TAGS_MAX,
  CONTENT_WARNINGS,
  IMAGE_UPLOAD_MAX_BYTES,
  IMAGE_UPLOAD_TYPES,
  SUMMARY_MAX_LENGTH,
  TITLE_MAX_LENGTH,
} from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type TextareaHTMLAttributes,
} from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { CheckGroup } from '../../../components/CheckGroup.tsx';
import { Chips } from '../../../components/Chips.tsx';
import { CoverImage } from '../../../components/CoverImage.tsx';
import { useLeaveGuard } from '../../../components/LeaveGuard.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { LoadError, Status } from '../../../components/Status.tsx';
import { TagInput, tagsWithTyped, type TagInputHandle } from '../../../components/TagInput.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { useFieldError } from '../../../lib/fieldError.tsx';
import { RATING_OPTIONS, STATUS_OPTIONS } from '../../../lib/book-labels.ts';
import { SUMMARY_MIN_HEIGHT } from '../../../lib/constants.ts';
import { megabytes } from '../../../lib/format.ts';
import { genresQuery } from '../../../lib/query.ts';
import {
  bookGenresQuery,
  selectableGenres,
  useAddBookGenre,
  useRemoveBookGenre,
  useUpdateBook,
  useUploadCover,
} from '../api/workspace.ts';
import { useWorkspaceBook } from './BookWorkspace.tsx';
import { ScheduleSettings } from './ScheduleSettings.tsx';
import { RecentlyDeleted } from './RecentlyDeleted.tsx';

/** Every toast of the details editor, as SPEC section 8 words them. */
export const TEXTS = {
  detailsOk: 'Updated Book Details',
  coverOk: 'Updated book cover.',
  coverFailed: 'Could not update book cover.',
  genreAdded: 'Added genre.',
  genreFailed: 'Could not add genre.',
  genreRemoveFailed: (name: string) => `Could not delete: ${name}`,
};

/** A textarea that grows with its content, never shorter than SUMMARY_MIN_HEIGHT. */
function AutoGrowTextarea(props: TextareaHTMLAttributes<HTMLTextAreaElement> & { value: string }) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const borders = el.offsetHeight - el.clientHeight;
    el.style.height = `${Math.max(SUMMARY_MIN_HEIGHT, el.scrollHeight + borders)}px`;
  }, [props.value]);
  return (
    <textarea
      ref={ref}
      rows={1}
      {...props}
      className="auto-grow"
      style={{ minHeight: SUMMARY_MIN_HEIGHT }}
    />
  );
}

const TITLE_EMPTY = 'The title cannot be empty.';

/** What leaving the details form with edits not saved loses (the leave guard asks). */
export const DETAILS_UNSAVED =
  'Your changes to the book details are not saved. Leave, and they are lost.';

/** What the details form edits. */
interface Details {
  title: string;
  summary: string;
  is_published: boolean;
  comments_locked: boolean;
  tags: string[];
  warnings: WarningId[];
  rating: BookRating;
  status: BookStatus;
}

const detailsOf = (book: Book): Details => ({
  title: book.title,
  summary: book.summary,
  is_published: book.is_published,
  comments_locked: book.comments_locked ?? false,
  tags: book.tags,
  warnings: book.warnings,
  rating: book.rating,
  status: book.status,
});

/** Whether saving `a` would change nothing of `b` (the title is sent trimmed, warnings are a set). */
const sameDetails = (a: Details, b: Details) =>
  a.title.trim() === b.title.trim() &&
  a.summary === b.summary &&
  a.is_published === b.is_published &&
  a.comments_locked === b.comments_locked &&
  a.tags.length === b.tags.length &&
  a.tags.every((tag, i) => tag === b.tags[i]) &&
  a.warnings.length === b.warnings.length &&
  a.warnings.every((warning) => b.warnings.includes(warning)) &&
  a.rating === b.rating &&
  a.status === b.status;

function DetailsForm({ book }: { book: Book }) {
  const { push } = useToasts();
  const [title, setTitle] = useState(book.title);
  const [summary, setSummary] = useState(book.summary);
  const [published, setPublished] = useState(book.is_published);
  const [commentsLocked, setCommentsLocked] = useState(book.comments_locked ?? false);
  const [tags, setTags] = useState(book.tags);
  const [warnings, setWarnings] = useState<WarningId[]>(book.warnings);
  const [rating, setRating] = useState<BookRating>(book.rating);
  const [status, setStatus] = useState<BookStatus>(book.status);
  const form = useRef<HTMLFormElement>(null);
  const error = useFieldError('details', form);
  const tagsField = useRef<TagInputHandle>(null);
  const tagsError = error.fieldProps('tags');
  const details: Details = {
    title,
    summary,
    is_published: published,
    comments_locked: commentsLocked,
    tags,
    warnings,
    rating,
    status,
  };
  // What the server has, as this form last saved it (or loaded it): edits past it ask before leaving.
  const [saved, setSaved] = useState(() => detailsOf(book));
  // A tag typed but not added yet counts too: Save would add it.
  const [typingTag, setTypingTag] = useState(false);
  useLeaveGuard(sameDetails(details, saved) && !typingTag ? null : DETAILS_UNSAVED);

  const save = useUpdateBook(book.id, {
    onSuccess: () => push(TEXTS.detailsOk, { type: 'SUCCESS' }),
    onError: (err) => {
      // The spec only logs this failure (section 8); the form also says so, next to the button.
      console.error('Could not update the book details', err);
      // A refusal says why, in the server's words, and names the field when it is one's (a taken
      // title, a refused tag).
      if (isApiError(err) && (err.status === 400 || err.status === 409))
        error.show(err.detail, error.fieldsOf(err));
      else error.show('The book details could not be saved. Please try again.');
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    error.clear();
    const trimmed = title.trim();
    if (!trimmed) {
      error.show(TITLE_EMPTY, ['title']);
      return;
    }
    // A tag typed without Enter is saved too; one the field refuses stops the save, and says why.
    const withTyped = tagsWithTyped(tagsField, tags);
    if (withTyped === null) return;
    const sent: Details = { ...details, title: trimmed, tags: withTyped };
    save.mutate(sent, { onSuccess: () => setSaved(sent) });
  };

  return (
    <section className="workspace-panel" aria-labelledby="details-title">
      <h2 id="details-title">Details</h2>
      <form className="form" ref={form} onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="book-title">Title</label>
          <input
            id="book-title"
            name="title"
            value={title}
            maxLength={TITLE_MAX_LENGTH}
            onChange={(e) => {
              setTitle(e.target.value);
              error.changed('title');
            }}
            {...error.fieldProps('title')}
          />
          {error.messageAt('title')}
        </div>
        <div className="field">
          <label htmlFor="book-summary">Summary</label>
          <AutoGrowTextarea
            id="book-summary"
            name="summary"
            {...error.fieldProps('summary')}
            value={summary}
            maxLength={SUMMARY_MAX_LENGTH}
            onChange={(e) => {
              setSummary(e.target.value);
              error.changed('summary');
            }}
          />
          {error.messageAt('summary')}
        </div>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={published}
            onChange={(e) => {
              setPublished(e.target.checked);
              error.changed('is_published');
            }}
          />
          Published
        </label>
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={commentsLocked}
            onChange={(e) => setCommentsLocked(e.target.checked)}
          />
          Lock comments (readers keep seeing them; no new ones on any chapter)
        </label>
        <TagInput
          name="tags"
          label="Tags"
          commitRef={tagsField}
          onTypingChange={setTypingTag}
          tags={tags}
          onChange={(next) => {
            setTags(next);
            error.changed('tags');
          }}
          max={BOOK_TAGS_MAX}
          help={`Up to ${BOOK_TAGS_MAX} tags readers can filter by. Press Enter or a comma after each.`}
          invalid={tagsError['aria-invalid']}
          describedBy={tagsError['aria-describedby']}
        />
        {error.messageAt('tags')}
        <CheckGroup<WarningId>
          legend="Content warnings"
          options={CONTENT_WARNINGS}
          value={warnings}
          onChange={(next) => {
            setWarnings(next);
            error.changed('warnings');
          }}
        />
        <div className="field-row">
          <div className="field">
            <label htmlFor="book-rating">Rating</label>
            <select
              id="book-rating"
              name="rating"
              value={rating}
              onChange={(e) => {
                setRating(e.target.value as BookRating);
                error.changed('rating');
              }}
              {...error.fieldProps('rating')}
            >
              {RATING_OPTIONS.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
            {error.messageAt('rating')}
          </div>
          <div className="field">
            <label htmlFor="book-status">Status</label>
            <select
              id="book-status"
              name="status"
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as BookStatus);
                error.changed('status');
              }}
              {...error.fieldProps('status')}
            >
              {STATUS_OPTIONS.map((st) => (
                <option key={st.id} value={st.id}>
                  {st.name}
                </option>
              ))}
            </select>
            {error.messageAt('status')}
          </div>
        </div>
        {error.formMessage()}
        <div>
          <SubmitButton className="button" busy={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save Details'}
          </SubmitButton>
        </div>
      </form>
    </section>
  );
}

function useObjectUrl(file: File | null): string | null {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setHref(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setHref(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return href;
}

/** Cover upload (PNG or JPEG): the chosen image shows as a preview until it is uploaded. */
function CoverEditor({ book }: { book: Book }) {
  const { push } = useToasts();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState('');
  const preview = useObjectUrl(file);

  const upload = useUploadCover(book.id, {
    onSuccess: () => {
      push(TEXTS.coverOk, { type: 'SUCCESS' });
      setFile(null);
    },
    onError: () => push(TEXTS.coverFailed, { type: 'ERROR' }),
  });

  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0];
    e.target.value = '';
    if (!chosen) return;
    if (!(IMAGE_UPLOAD_TYPES as readonly string[]).includes(chosen.type)) {
      setProblem('Choose a PNG or JPEG image.');
      return;
    }
    setProblem('');
    setFile(chosen);
  };

  const caption = file
    ? `Preview of ${file.name}: not uploaded yet`
    : book.cover
      ? 'Current cover'
      : 'No cover yet';
  return (
    <section className="workspace-panel" aria-labelledby="cover-title">
      <h2 id="cover-title">Cover</h2>
      <div className="cover-editor">
        <figure className="cover-figure">
          <CoverImage
            src={preview ?? book.cover}
            title={book.title}
            className="cover-medium"
            decorative={false}
          />
          <figcaption className="field-help">{caption}</figcaption>
        </figure>
        <div className="cover-actions">
          <label className="button button-secondary file-button">
            Choose Image
            <input
              type="file"
              accept={IMAGE_UPLOAD_TYPES.join(',')}
              onChange={pick}
              disabled={upload.isPending}
              className="visually-hidden"
            />
          </label>
          <p className="field-help">PNG or JPEG, up to {megabytes(IMAGE_UPLOAD_MAX_BYTES)}.</p>
          {problem && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
          {file && (
            <div className="button-row">
              <button
                type="button"
                className="button"
                onClick={() => upload.mutate(file)}
                disabled={upload.isPending}
              >
                {upload.isPending ? 'Uploading...' : 'Upload Cover'}
              </button>
              <button
                type="button"
                className="button button-quiet"
                onClick={() => setFile(null)}
                disabled={upload.isPending}
              >
                Cancel
              </button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

/** Genres: add one not attached yet, remove attached ones. */
function GenreEditor({ bookId }: { bookId: number }) {
  const { push } = useToasts();
  const all = useQuery(genresQuery());
  const attached = useQuery(bookGenresQuery(bookId));
  const [choice, setChoice] = useState('');
  const options = selectableGenres(all.data ?? [], attached.data ?? []);
  const form = useRef<HTMLFormElement>(null);
  const picker = useRef<HTMLSelectElement>(null);

  const add = useAddBookGenre(bookId, {
    onSuccess: () => {
      push(TEXTS.genreAdded, { type: 'INFO' });
      // With the choice gone "Add Genre" is disabled again (nothing to send), which would drop
      // the keyboard's focus to the page: it goes to the picker, for the next genre. Unless the
      // author moved on while the genre was being added.
      if (form.current?.contains(document.activeElement)) picker.current?.focus();
      setChoice('');
    },
    onError: () => push(TEXTS.genreFailed, { type: 'ERROR' }),
  });
  const remove = useRemoveBookGenre(bookId, {
    onError: (_error, genre) => push(TEXTS.genreRemoveFailed(genre.name), { type: 'ERROR' }),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (choice) add.mutate(Number(choice));
  };

  return (
    <section className="workspace-panel" aria-labelledby="genres-title">
      <h2 id="genres-title">Genres</h2>
      {attached.isError && <Status kind="error">Could not load the genres of this book.</Status>}
      {attached.data && attached.data.length === 0 && <p className="muted">No genres yet.</p>}
      {attached.data && attached.data.length > 0 && (
        <Chips
          label="Genres of this book"
          className="genre-chips"
          items={attached.data}
          name={(genre) => genre.name}
          itemKey={(genre) => genre.id}
          onRemove={(genre) => remove.mutate(genre)}
          isRemoving={(genre) => remove.isPending && remove.variables?.id === genre.id}
        />
      )}
      <form ref={form} className="genre-add" onSubmit={submit}>
        <label htmlFor="genre-choice">Add a genre</label>
        <div className="add-book-row">
          <select
            ref={picker}
            id="genre-choice"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
            disabled={!all.data || !attached.data}
          >
            <option value="">Choose a genre</option>
            {options.map((genre) => (
              <option key={genre.id} value={genre.id}>
                {genre.name}
              </option>
            ))}
          </select>
          <SubmitButton className="button" disabled={!choice} busy={add.isPending}>
            Add Genre
          </SubmitButton>
        </div>
        {/* The genres are never asked again by themselves (staleTime Infinity): the author can. */}
        {all.isError && !all.data && (
          <LoadError onRetry={() => void all.refetch()}>Could not load the genres.</LoadError>
        )}
      </form>
    </section>
  );
}

/** /my/workspace/books/{bookId}: the details editor, shown when no chapter is open. */
export function BookDetails() {
  const { book } = useWorkspaceBook();
  return (
    <div className="workspace-details">
      <PageTitle title={`Edit ${book.title}`}>Book Details</PageTitle>
      <DetailsForm key={book.id} book={book} />
      <CoverEditor book={book} />
      <ScheduleSettings key={`schedule-${book.id}`} book={book} />
      <GenreEditor bookId={book.id} />
      <RecentlyDeleted bookId={book.id} />
    </div>
  );
}
