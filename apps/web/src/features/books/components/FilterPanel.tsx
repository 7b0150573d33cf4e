import type { BookRating, BookStatus, WarningId } from '@inkwell/contract';
import { CONTENT_WARNINGS, FILTER_LIST_MAX } from '@inkwell/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { CheckGroup } from '../../../components/CheckGroup.tsx';
import { TagInput, tagsWithTyped, type TagInputHandle } from '../../../components/TagInput.tsx';
import { RATING_OPTIONS, STATUS_OPTIONS } from '../../../lib/book-labels.ts';
import { genresQuery } from '../../../lib/query.ts';
import {
  activeFilterCount,
  apiFilterQuery,
  NO_FILTERS,
  parseMinWords,
  readFilters,
  sortsOf,
  writeFilters,
  type BookFilters,
  type FilterScope,
} from '../filters.ts';

const SORT_LABELS: Record<string, string> = {
  relevance: 'Best match',
  updated: 'Recently updated',
  new: 'Newest',
  popular: 'Most popular',
  words: 'Longest',
  followers: 'Most followed',
};

const MIN_WORDS_PROBLEM = 'Enter a whole number of words, such as 10000.';

function FilterForm({ scope, initial }: { scope: FilterScope; initial: BookFilters }) {
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState(initial);
  const [minWords, setMinWords] = useState(initial.min_words?.toString() ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const genres = useQuery({ ...genresQuery(), enabled: scope !== 'genre' });
  const id = useId();
  const tagsField = useRef<TagInputHandle>(null);
  const excludeField = useRef<TagInputHandle>(null);
  const set = <K extends keyof BookFilters>(key: K, value: BookFilters[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const apply = (e: FormEvent) => {
    e.preventDefault();
    // A tag typed but not added with Enter is meant too: it is added now, or its field says why
    // not and nothing is applied.
    const tags = tagsWithTyped(tagsField, draft.tags);
    const excludeTags = tagsWithTyped(excludeField, draft.exclude_tags);
    const words = parseMinWords(minWords);
    setProblem(words === undefined ? MIN_WORDS_PROBLEM : null);
    if (tags === null || excludeTags === null || words === undefined) return;
    setParams(
      writeFilters(params, { ...draft, tags, exclude_tags: excludeTags, min_words: words }),
    );
  };

  const clear = () => {
    setDraft(NO_FILTERS);
    setMinWords('');
    setProblem(null);
    setParams(writeFilters(params, NO_FILTERS));
  };

  return (
    <form className="filter-form" onSubmit={apply} noValidate aria-label="Filter books">
      <div className="filter-columns">
        <div className="filter-column">
          <TagInput
            name="tags"
            label="With all these tags"
            commitRef={tagsField}
            tags={draft.tags}
            onChange={(tags) => set('tags', tags)}
            max={FILTER_LIST_MAX}
          />
          <TagInput
            name="exclude_tags"
            label="Without these tags"
            commitRef={excludeField}
            tags={draft.exclude_tags}
            onChange={(tags) => set('exclude_tags', tags)}
            max={FILTER_LIST_MAX}
          />
          {scope !== 'genre' && (
            <div className="field">
              <label htmlFor={`${id}-genre`}>Genre</label>
              <select
                id={`${id}-genre`}
                value={draft.genre}
                onChange={(e) => set('genre', e.target.value)}
              >
                <option value="">Any genre</option>
                {genres.data?.map((g) => (
                  <option key={g.id} value={g.name}>
                    {g.name}
                  </option>
                ))}
                {/* A genre named by a link before the list arrived stays chosen. */}
                {draft.genre && !genres.data?.some((g) => g.name === draft.genre) && (
                  <option value={draft.genre}>{draft.genre}</option>
                )}
              </select>
            </div>
          )}
          <div className="field">
            <label htmlFor={`${id}-words`}>At least this many words</label>
            <input
              id={`${id}-words`}
              name="min_words"
              inputMode="numeric"
              value={minWords}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-words-problem` : undefined}
              onChange={(e) => {
                setMinWords(e.target.value);
                setProblem(null);
              }}
            />
            {problem && (
              <p id={`${id}-words-problem`} className="form-error" role="alert">
                {problem}
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor={`${id}-sort`}>Order</label>
            <select
              id={`${id}-sort`}
              value={draft.sort}
              onChange={(e) => set('sort', e.target.value)}
            >
              <option value="">Default order</option>
              {sortsOf(scope).map((sort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort] ?? sort}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="filter-column">
          <CheckGroup<WarningId>
            legend="Hide books with these warnings"
            options={CONTENT_WARNINGS}
            value={draft.exclude_warnings}
            onChange={(v) => set('exclude_warnings', v)}
          />
          <CheckGroup<BookRating>
            legend="Rating"
            options={RATING_OPTIONS}
            value={draft.rating}
            onChange={(v) => set('rating', v)}
          />
          <CheckGroup<BookStatus>
            legend="Status"
            options={STATUS_OPTIONS}
            value={draft.status}
            onChange={(v) => set('status', v)}
          />
        </div>
      </div>
      <div className="button-row">
        <button type="submit" className="button">
          Apply filters
        </button>
        <button type="button" className="button button-quiet" onClick={clear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}

/**
 * The filters of a book list (issue 21), folded away under a summary that counts those set. The
 * form edits a draft; "Apply filters" writes it into the page address (a new history entry), so
 * the list, a shared link and the back button all follow the address.
 */
export function FilterPanel({ scope }: { scope: FilterScope }) {
  const [params] = useSearchParams();
  const filters = readFilters(params, scope);
  const count = activeFilterCount(filters);
  const [open, setOpen] = useState(count > 0);
  // A new address (a tag chip, the back button) starts the form over from what it names.
  const formKey = apiFilterQuery(filters, false);
  return (
    <details
      className="filter-panel"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>Filters{count > 0 && <span className="filter-count"> ({count} set)</span>}</summary>
      <FilterForm key={formKey} scope={scope} initial={filters} />
    </details>
  );
}
