import { normalizeTag, tagKey, tagProblem } from '@inkwell/contract/tags';
import { useQuery } from '@tanstack/react-query';
import {
  useEffect,
  useId,
  useImperativeHandle,
  useState,
  type KeyboardEvent,
  type Ref,
  type RefObject,
} from 'react';
import { tagSuggestionsQuery } from '../lib/query.ts';
import { Chips } from './Chips.tsx';

/** Typing pauses this long before suggestions are asked for. */
const SUGGEST_DELAY_MS = 200;

/**
 * `tags` with `raw` added as the server would keep it (trimmed, inner spaces collapsed), or why
 * not: empty, too long, already there in any case, or `max` reached.
 */
export function addTag(
  tags: readonly string[],
  raw: string,
  max: number,
): { tags: string[] } | { problem: string } {
  const tag = normalizeTag(raw);
  const problem = tagProblem(tag);
  if (problem) return { problem: problem[0]!.toUpperCase() + problem.slice(1) + '.' };
  const same = tags.find((t) => tagKey(t) === tagKey(tag));
  if (same !== undefined) return { problem: `“${same}” is already in the list.` };
  if (tags.length >= max) return { problem: `At most ${max} tags.` };
  return { tags: [...tags, tag] };
}

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** What a form asks of a tag input when it is submitted. */
export interface TagInputHandle {
  /**
   * Adds the text typed but not added yet, as Enter would, and answers the tags with it (the tags
   * as they are when nothing is typed). A refused text stays, the field says why, and the answer is
   * null: the form should not go on.
   */
  commitPending(): string[] | null;
}

/**
 * What a form submits of a tag field: its tags with what is typed in it but not added yet (added
 * now), or null when the field refused that (it says why; the form goes no further). `tags` is
 * the answer when the field is not mounted.
 */
export const tagsWithTyped = (field: RefObject<TagInputHandle | null>, tags: string[]) =>
  field.current ? field.current.commitPending() : tags;

/**
 * A list of free tags: chips with a remove button each, and a text field (an ARIA combobox) that
 * suggests the site's tags for what is typed. Enter or a comma adds the typed tag (or the
 * suggestion chosen with the arrow keys), Backspace in an empty field removes the last chip,
 * Escape closes the suggestions. A refused tag says why, next to the field. A form that submits
 * the tags passes `commitRef` and calls `commitPending()` first: a tag typed without Enter counts.
 */
export function TagInput({
  label,
  tags,
  onChange,
  max,
  help,
  name,
  commitRef,
  onTypingChange,
  invalid,
  describedBy: describedByForm,
}: {
  label: string;
  tags: readonly string[];
  onChange(tags: string[]): void;
  max: number;
  help?: string;
  /** Names the field for tests and forms; also prefixes the element ids. */
  name?: string;
  /** Filled with the handle a form calls on submit (a plain prop: the bundle runs on Preact). */
  commitRef?: Ref<TagInputHandle>;
  /** Told whether text is typed but not added yet (a form's "unsaved" counts it). */
  onTypingChange?: (typing: boolean) => void;
  /** The form marks the field invalid (an error about the tags it holds). */
  invalid?: boolean | undefined;
  /** Ids of the form's own descriptions of the field (its error), after the field's own. */
  describedBy?: string | undefined;
}) {
  const base = useId();
  const inputId = `${name ?? 'tags'}${base}`;
  const listId = `${inputId}-suggestions`;
  const helpId = `${inputId}-help`;
  const problemId = `${inputId}-problem`;
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const prefix = useSettled(normalizeTag(text), SUGGEST_DELAY_MS);
  const suggestions = useQuery({ ...tagSuggestionsQuery(prefix), enabled: open && prefix !== '' });
  const chosen = new Set(tags.map(tagKey));
  const options = (suggestions.data ?? []).filter((s) => !chosen.has(tagKey(s.name)));
  const expanded = open && prefix !== '' && options.length > 0;

  const add = (raw: string): string[] | null => {
    const result = addTag(tags, raw, max);
    if ('problem' in result) {
      setProblem(result.problem);
      return null;
    }
    onChange(result.tags);
    setText('');
    setProblem(null);
    setActive(-1);
    return result.tags;
  };

  const typing = text.trim() !== '';
  useEffect(() => onTypingChange?.(typing), [typing, onTypingChange]);

  useImperativeHandle(commitRef, () => ({
    commitPending: () => {
      if (!typing) return [...tags];
      // Already in the list: nothing typed is lost by leaving it out.
      if (chosen.has(tagKey(text))) {
        setText('');
        setProblem(null);
        return [...tags];
      }
      return add(text);
    },
  }));

  const remove = (tag: string) => {
    onChange(tags.filter((t) => t !== tag));
    setProblem(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!expanded) {
        setOpen(true);
        return;
      }
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // From "none" (-1) through each suggestion and back to "none".
      setActive((i) => {
        const next = i + step;
        if (next < -1) return options.length - 1;
        return next >= options.length ? -1 : next;
      });
      return;
    }
    if (e.key === 'Enter' || e.key === ',') {
      const pick = expanded && active >= 0 ? options[active] : undefined;
      if (!pick && text.trim() === '') {
        // An empty field lets Enter submit the surrounding form; a lone comma is just dropped.
        if (e.key === ',') e.preventDefault();
        return;
      }
      e.preventDefault();
      add(pick ? pick.name : text);
      return;
    }
    if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      setOpen(false);
      return;
    }
    if (e.key === 'Backspace' && text === '' && tags.length > 0) remove(tags[tags.length - 1]!);
  };

  const describedBy = [help ? helpId : null, problem ? problemId : null, describedByForm]
    .filter(Boolean)
    .join(' ');
  const activeOption = expanded && active >= 0 && active < options.length ? active : -1;

  return (
    <div className="field tag-input">
      <label htmlFor={inputId}>{label}</label>
      {tags.length > 0 && (
        <Chips label={label} items={tags} name={(tag) => tag} itemKey={tagKey} onRemove={remove} />
      )}
      <div className="tag-input-box">
        <input
          id={inputId}
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={activeOption >= 0 ? `${listId}-${activeOption}` : undefined}
          aria-describedby={describedBy || undefined}
          aria-invalid={problem || invalid ? true : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setProblem(null);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label={`${label}: suggestions`} hidden={!expanded}>
          {expanded &&
            options.map((option, i) => (
              <li
                key={option.name}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === activeOption}
                className={i === activeOption ? 'is-active' : undefined}
                // Keeps the focus in the field, so the pick is added where the typing goes on.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => add(option.name)}
              >
                {option.name} <span className="muted">({option.books})</span>
              </li>
            ))}
        </ul>
      </div>
      {help && (
        <p id={helpId} className="field-help">
          {help}
        </p>
      )}
      {problem && (
        <p id={problemId} className="form-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
