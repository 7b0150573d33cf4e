import type { BookRating, MyFilters, WarningId } from '@inkwell/contract';
import { CONTENT_WARNINGS, FILTER_LIST_MAX } from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { CheckGroup } from '../../../components/CheckGroup.tsx';
import { Chips } from '../../../components/Chips.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { TagInput, tagsWithTyped, type TagInputHandle } from '../../../components/TagInput.tsx';
import { isApiError } from '../../../lib/api.ts';
import { RATING_OPTIONS } from '../../../lib/book-labels.ts';
import { myFiltersQuery, useSaveMyFilters } from '../api/settings.ts';

const FILTER_TEXTS = {
  title: 'My filters',
  about:
    'Books with these tags, warnings or ratings, and books by these authors, are left out of every list and search you see. Each list says how many it hid, with a way to show them anyway.',
  saved: 'Saved your filters. Lists and search now leave these books out.',
  failed: 'Could not save your filters. Try again.',
  loadFailed: 'Could not load your filters.',
};

function saveErrorText(error: unknown): string {
  // A refused value (an unknown username, a bad tag): the server names it.
  if (isApiError(error) && error.status >= 400 && error.status < 500) return error.detail;
  if (isApiError(error, 0)) return 'Could not reach the server. Try again.';
  return FILTER_TEXTS.failed;
}

/** Muted authors by username: chips to remove, a field and a button to add. */
function AuthorList({
  names,
  onChange,
}: {
  names: readonly string[];
  onChange(names: string[]): void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const name = text.trim();
    if (name === '') {
      setProblem('Enter a username.');
      return;
    }
    if (names.some((n) => n.toLowerCase() === name.toLowerCase())) {
      setProblem(`${name} is already in the list.`);
      return;
    }
    onChange([...names, name]);
    setText('');
    setProblem(null);
  };
  return (
    <div className="field">
      <label htmlFor={`${id}-author`}>Hide books by these authors</label>
      {names.length > 0 && (
        <Chips
          label="Hidden authors"
          items={names}
          name={(name) => name}
          onRemove={(name) => onChange(names.filter((n) => n !== name))}
        />
      )}
      <div className="inline-add">
        <input
          id={`${id}-author`}
          autoComplete="off"
          value={text}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setProblem(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" className="button button-secondary" onClick={add}>
          Add author
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

function MyFiltersForm({ saved }: { saved: MyFilters }) {
  const [draft, setDraft] = useState(saved);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveMyFilters({
    onSuccess: () => {
      setError(null);
      setNotice(FILTER_TEXTS.saved);
    },
    onError: (err) => {
      setNotice(null);
      setError(saveErrorText(err));
    },
  });
  const set = <K extends keyof MyFilters>(key: K, value: MyFilters[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setNotice(null);
    setError(null);
  };
  const tagsField = useRef<TagInputHandle>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A tag typed without Enter is saved too; one the field refuses stops the save, and says why.
    const typed = tagsWithTyped(tagsField, draft.exclude_tags);
    if (typed === null) return;
    save.mutate({ ...draft, exclude_tags: typed });
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={FILTER_TEXTS.title}>
      <TagInput
        name="exclude_tags"
        label="Hide books with these tags"
        commitRef={tagsField}
        tags={draft.exclude_tags}
        onChange={(tags) => set('exclude_tags', tags)}
        max={FILTER_LIST_MAX}
      />
      <CheckGroup<WarningId>
        legend="Hide books with these warnings"
        options={CONTENT_WARNINGS}
        value={draft.exclude_warnings}
        onChange={(v) => set('exclude_warnings', v)}
      />
      <CheckGroup<BookRating>
        legend="Hide books rated"
        options={RATING_OPTIONS}
        value={draft.exclude_ratings}
        onChange={(v) => set('exclude_ratings', v)}
      />
      <AuthorList names={draft.muted_authors} onChange={(v) => set('muted_authors', v)} />
      <div>
        <SubmitButton className="button" busy={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save my filters'}
        </SubmitButton>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="form-success" role="status">
          {notice}
        </p>
      )}
    </form>
  );
}

/** Settings' "My filters" (issue 21): the exclusions applied wherever the reader meets books. */
export function MyFiltersCard() {
  const titleId = useId();
  const filters = useQuery(myFiltersQuery());
  return (
    <section className="settings-card" aria-labelledby={titleId} id="my-filters">
      <h2 id={titleId}>{FILTER_TEXTS.title}</h2>
      <p className="field-help">{FILTER_TEXTS.about}</p>
      {filters.isPending && <Loading />}
      {filters.isError && <Status kind="error">{FILTER_TEXTS.loadFailed}</Status>}
      {filters.data && <MyFiltersForm saved={filters.data} />}
    </section>
  );
}
