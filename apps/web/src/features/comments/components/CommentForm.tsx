import { COMMENT_MAX_LENGTH } from '@inkwell/contract/constants';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { commentErrorText } from '../api/comments.ts';
import { textToBody, wrapSelection, type Mark } from '../body.ts';

interface CommentFormProps {
  label: string;
  submitLabel: string;
  initial?: string;
  /** Sends the body (HTML); a rejection keeps the text in the box and shows why. */
  onSubmit(body: string): Promise<unknown>;
  onCancel?(): void;
  /** The box takes focus when the form appears (an edit or a reply opened by its button). */
  autoFocus?: boolean;
}

const TOOLS: { mark: Mark; label: string; text: string }[] = [
  { mark: 'bold', label: 'Bold', text: 'B' },
  { mark: 'italic', label: 'Italic', text: 'I' },
  { mark: 'spoiler', label: 'Spoiler', text: 'Spoiler' },
];

/**
 * The box to write a comment, a reply or an edit: a textarea with a tiny toolbar (bold, italic,
 * spoiler). The text is cleared only once the server took it; a failure leaves it and says why.
 */
export function CommentForm({
  label,
  submitLabel,
  initial = '',
  onSubmit,
  onCancel,
  autoFocus = false,
}: CommentFormProps) {
  const id = useId();
  const box = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Said once sent: the new comment may sit on a page of the list not loaded (oldest first).
  const [posted, setPosted] = useState(false);

  // Not the textarea's `autoFocus`: Preact, which the bundle runs on, leaves it to the browser,
  // which honours it only while the page loads.
  useEffect(() => {
    if (autoFocus) box.current?.focus();
  }, [autoFocus]);

  const mark = (which: Mark) => {
    const area = box.current;
    if (!area) return;
    const next = wrapSelection(text, area.selectionStart, area.selectionEnd, which);
    setText(next.text);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(next.start, next.end);
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() || pending) return;
    setPending(true);
    setError(null);
    setPosted(false);
    try {
      await onSubmit(textToBody(text));
      setText('');
      setPosted(true);
      // The button it was sent with is disabled now (nothing to send): the box takes the focus.
      box.current?.focus();
    } catch (err) {
      setError(commentErrorText(err, 'Could not send the comment.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="form comment-form" onSubmit={submit}>
      <label htmlFor={id} className="comment-form-label">
        {label}
      </label>
      <div className="comment-toolbar" role="toolbar" aria-label="Formatting" aria-controls={id}>
        {TOOLS.map((tool) => (
          <button
            key={tool.mark}
            type="button"
            className={`button button-small button-quiet comment-tool-${tool.mark}`}
            aria-label={tool.label}
            onClick={() => mark(tool.mark)}
          >
            {tool.text}
          </button>
        ))}
      </div>
      <textarea
        id={id}
        ref={box}
        value={text}
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        onChange={(e) => {
          setText(e.target.value);
          setPosted(false);
        }}
      />
      <p className="visually-hidden" role="status">
        {posted ? 'Posted.' : ''}
      </p>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="comment-form-actions">
        <SubmitButton className="button button-small" disabled={!text.trim()} busy={pending}>
          {pending ? 'Sending...' : submitLabel}
        </SubmitButton>
        {onCancel && (
          <button type="button" className="button button-small button-quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
