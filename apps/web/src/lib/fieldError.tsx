import { useEffect, useState, type RefObject } from 'react';
import { isApiError } from './api.ts';
import { useFormError } from './formError.ts';

/**
 * A form's error (useFormError: it goes once a field it is about changes) tied to those fields for
 * a screen reader: each is aria-invalid and described by the message, and the focus goes to the
 * first of them (in the form's order) each time an error is shown. A message about one field is
 * shown at it (`messageAt`), one about several or none below the form (`formMessage`). Ids:
 * `${prefix}-${field}-error` at a field, `${prefix}-error` for the form.
 */
export function useFieldError(prefix: string, form: RefObject<HTMLFormElement | null>) {
  const error = useFormError();
  const fields = error.fields ?? [];
  const alone = fields.length === 1 ? fields[0] : undefined;
  const messageId = alone === undefined ? `${prefix}-error` : `${prefix}-${alone}-error`;

  // The error shown that is said as an alert (see below); null when none is.
  const [alerted, setAlerted] = useState<typeof error.shown>(null);

  // Each error shown moves the focus to the first of its fields (none: the focus stays).
  // The rule for saying it: an error whose message the focus has just been moved onto (a field
  // described by it, that did not have the focus) is heard there, once, from the field and its
  // description; an alert as well would make a screen reader say it twice. Any other error (about
  // no field, its field not in the form, not focusable, or already focused, so that no focus moves
  // and a changed description is not read) is said as an alert, or it would not be heard at all.
  const { shown } = error;
  useEffect(() => {
    if (!shown) return;
    const first = Array.from(form.current?.elements ?? []).find((el) =>
      shown.fields?.includes(el.getAttribute('name') ?? ''),
    );
    const before = document.activeElement;
    if (first instanceof HTMLElement) first.focus();
    const heard =
      first !== undefined &&
      first !== before &&
      document.activeElement === first &&
      (first.getAttribute('aria-describedby') ?? '').split(' ').includes(messageId);
    if (!heard) setAlerted(shown);
  }, [shown, form, messageId]);

  const said = (className: string) => {
    const alert = shown !== null && (shown.fields === null || alerted === shown);
    // A new element when it becomes an alert: inserted with its role, which a screen reader says.
    return (
      <p
        key={alert ? 'alert' : 'quiet'}
        id={messageId}
        className={className}
        role={alert ? 'alert' : undefined}
      >
        {error.message}
      </p>
    );
  };

  return {
    /** Shows `message`, caused by `fields` (null: by the form as a whole), and focuses the first. */
    show: error.show,
    /**
     * The field an API error is about, when this form has it: the one the server names (the error
     * body's `field`), if an element of the form bears that name. Never guessed from the status or
     * the words: null when the server names none of the form's fields, and the error is the form's.
     */
    fieldsOf: (err: unknown): string[] | null => {
      const named = isApiError(err) ? err.field : undefined;
      return named !== undefined && form.current?.elements.namedItem(named) ? [named] : null;
    },
    clear: error.clear,
    changed: error.changed,
    /**
     * The ARIA attributes of the field `name`: its `describedBy` (help) is kept, and `invalid`
     * marks it even without an error shown (a hint while typing).
     */
    fieldProps: (
      name: string,
      { describedBy, invalid }: { describedBy?: string | undefined; invalid?: boolean } = {},
    ) => {
      const own = fields.includes(name);
      return {
        'aria-invalid': own || invalid ? true : undefined,
        'aria-describedby':
          [describedBy, own ? messageId : null].filter(Boolean).join(' ') || undefined,
      };
    },
    /** The message, when it is about the field `name` alone: shown under that field. */
    messageAt: (name: string) => alone === name && said('field-error'),
    /** The message, when it is about several fields or none: shown at the end of the form. */
    formMessage: () => error.message !== null && alone === undefined && said('form-error'),
  };
}
