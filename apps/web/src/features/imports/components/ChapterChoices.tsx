import type { ImportPlan, ImportPreview } from '@inkwell/contract';
import { TITLE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useEffect, useId, useRef, useState } from 'react';
import { BusyButton } from '../../../components/BusyButton.tsx';
import {
  hasProblems,
  initialChoices,
  planOf,
  problemsOf,
  totalsOf,
  type ChapterChoice,
} from '../choices.ts';

const KIND_LABEL = { front: 'Front matter', back: 'Back matter', body: null };
const count = (n: number, one: string) =>
  `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * The chapters a file would become, before anything is created: the author unticks what they do
 * not want (front and back matter start unticked), merges a very short chapter into the next one
 * and renames chapters, then creates the book. Every control is a native one, labelled with its
 * chapter, so the whole table works from the keyboard and a screen reader.
 */
export function ChapterChoices({
  preview,
  pending,
  error,
  onCreate,
}: {
  preview: ImportPreview;
  pending: boolean;
  /** The create call's failure, if any. */
  error: string | null;
  onCreate(plan: ImportPlan): void;
}) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [choices, setChoices] = useState<ChapterChoice[]>(() => initialChoices(preview));
  const [triedToCreate, setTriedToCreate] = useState(false);
  const problems = problemsOf(choices);
  const totals = totalsOf(preview, choices);

  // The proposal replaces the form's place in the reading order: say so by moving focus to it.
  useEffect(() => heading.current?.focus(), []);

  const update = (index: number, change: Partial<ChapterChoice>) =>
    setChoices((all) => all.map((c, i) => (i === index ? { ...c, ...change } : c)));

  const create = () => {
    if (hasProblems(problems)) {
      setTriedToCreate(true);
      // Take the author to the first thing to fix.
      const first = [...problems.titles.keys(), ...problems.merges.keys()].sort((a, b) => a - b)[0];
      const target = first === undefined ? null : problems.titles.has(first) ? 'title' : 'merge';
      if (target) document.getElementById(`${id}-${target}-${first}`)?.focus();
      return;
    }
    onCreate(planOf(preview, choices));
  };

  return (
    <section className="import-choices" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={heading} tabIndex={-1}>
        Chapters of “{preview.title}”
      </h2>
      <p>
        {preview.source_author ? `By ${preview.source_author}. ` : ''}
        {count(preview.chapters.length, 'chapter')} found in {preview.filename}. Untick what you do
        not want, merge a very short chapter into the next one, or rename a chapter. Nothing is
        created until you press Create book.
      </p>
      {preview.warnings.length > 0 && (
        <ul className="import-warnings">
          {preview.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <div className="table-scroll">
        <table className="table import-chapters">
          <caption className="visually-hidden">Proposed chapters</caption>
          <thead>
            <tr>
              <th scope="col">Import</th>
              <th scope="col">Chapter</th>
              <th scope="col">Words</th>
              <th scope="col">Merge into next</th>
            </tr>
          </thead>
          <tbody>
            {preview.chapters.map((chapter, i) => {
              const choice = choices[i]!;
              const number = i + 1;
              const titleError = problems.titles.get(i);
              const mergeError = problems.merges.get(i);
              const kind = KIND_LABEL[chapter.kind];
              const described = [
                titleError && `${id}-title-error-${i}`,
                chapter.opening && `${id}-opening-${i}`,
              ]
                .filter(Boolean)
                .join(' ');
              return (
                <tr key={chapter.index} className={choice.include ? undefined : 'import-skipped'}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Import chapter ${number}`}
                      checked={choice.include}
                      onChange={(e) => update(i, { include: e.target.checked })}
                    />
                  </td>
                  <td>
                    <div className="import-chapter-head">
                      <label htmlFor={`${id}-title-${i}`}>Title of chapter {number}</label>
                      {kind && <span className="import-kind">{kind}</span>}
                    </div>
                    <input
                      id={`${id}-title-${i}`}
                      type="text"
                      value={choice.title}
                      maxLength={TITLE_MAX_LENGTH}
                      disabled={!choice.include}
                      aria-invalid={titleError ? true : undefined}
                      aria-describedby={described || undefined}
                      onChange={(e) => update(i, { title: e.target.value })}
                    />
                    {titleError && (
                      <p id={`${id}-title-error-${i}`} className="field-error">
                        {titleError}
                      </p>
                    )}
                    {chapter.opening && (
                      <p id={`${id}-opening-${i}`} className="import-opening">
                        {chapter.opening}
                      </p>
                    )}
                  </td>
                  <td className="import-words">{chapter.words.toLocaleString('en-US')}</td>
                  <td>
                    <input
                      id={`${id}-merge-${i}`}
                      type="checkbox"
                      aria-label={`Merge chapter ${number} into the next chapter`}
                      checked={choice.merge}
                      disabled={!choice.include}
                      aria-invalid={mergeError ? true : undefined}
                      aria-describedby={mergeError ? `${id}-merge-error-${i}` : undefined}
                      onChange={(e) => update(i, { merge: e.target.checked })}
                    />
                    {mergeError && (
                      <p id={`${id}-merge-error-${i}`} className="field-error">
                        {mergeError}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p role="status" className="import-totals">
        The book will have {count(totals.chapters, 'chapter')}, {count(totals.words, 'word')}.
      </p>
      {problems.list && (
        <p className="form-error" role="alert">
          {problems.list}
        </p>
      )}
      {triedToCreate && !problems.list && hasProblems(problems) && (
        <p className="form-error" role="alert">
          Fix the chapters marked above first.
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <BusyButton className="button" busy={pending} onClick={create}>
        {pending ? 'Creating...' : 'Create book'}
      </BusyButton>
    </section>
  );
}
