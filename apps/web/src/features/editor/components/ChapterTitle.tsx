import { TITLE_MAX_LENGTH } from '@inkwell/contract/constants';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { PageTitle } from '../../../components/Page.tsx';
import { TITLE_INPUT_FONT_SIZE } from '../../../lib/constants.ts';
import { Icon } from './icons.tsx';

interface ChapterTitleProps {
  title: string;
  /** Saves a new title; answers whether it was accepted (the shown title reverts if not). */
  onRename(title: string): Promise<boolean>;
}

const titleStyle = { fontSize: TITLE_INPUT_FONT_SIZE };

/**
 * The chapter title: shown as the page heading; the pencil turns it into a field, and Enter or the
 * save icon commits (SPEC sections 2 and 4). Escape cancels. A refused rename shows the old title.
 * Either way focus goes back to the pencil, which does nothing until the rename is saved.
 */
export function ChapterTitle({ title, onRename }: ChapterTitleProps) {
  const [editing, setEditing] = useState(false);
  const [shown, setShown] = useState(title);
  const [value, setValue] = useState(title);
  const [pending, setPending] = useState(false);
  const pencil = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);

  useEffect(() => {
    if (!pending) setShown(title);
  }, [title, pending]);

  // Focus moves into the field when it opens (`autoFocus` does nothing on Preact, which the bundle
  // runs on, for a field added after the page has loaded) and back to the pencil when it closes.
  useEffect(() => {
    if (editing) {
      field.current?.focus();
    } else if (refocus.current) {
      refocus.current = false;
      pencil.current?.focus();
    }
  }, [editing]);

  const stop = () => {
    refocus.current = true;
    setEditing(false);
  };

  const commit = async (e?: FormEvent) => {
    e?.preventDefault();
    const next = value.trim();
    stop();
    if (!next || next === shown) return;
    const previous = shown;
    setShown(next);
    setPending(true);
    const ok = await onRename(next);
    setPending(false);
    if (!ok) setShown(previous);
  };

  return (
    <div className="chapter-title">
      <PageTitle title={shown} className={editing ? 'visually-hidden' : 'chapter-title-text'}>
        <span style={titleStyle}>{shown}</span>
      </PageTitle>
      {editing ? (
        <form className="chapter-title-form" onSubmit={commit}>
          <input
            ref={field}
            aria-label="Chapter title"
            className="chapter-title-input"
            style={titleStyle}
            value={value}
            maxLength={TITLE_MAX_LENGTH}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                stop();
              }
            }}
          />
          <button type="submit" className="icon-button" aria-label="Save title" title="Save title">
            <Icon name="save" size={22} />
          </button>
        </form>
      ) : (
        <button
          ref={pencil}
          type="button"
          className="icon-button"
          aria-label="Edit title"
          title="Edit title"
          // Not `disabled`: focus comes back here from the field, also while the rename is saved,
          // and a disabled button cannot take it (it would fall to <body>).
          aria-disabled={pending || undefined}
          onClick={() => {
            if (pending) return;
            setValue(shown);
            setEditing(true);
          }}
        >
          <Icon name="pencil" size={22} />
        </button>
      )}
    </div>
  );
}
