import { useEffect, type RefObject } from 'react';
import { useFormError } from './formError.ts';

/**
 * A form's error (useFormError: it goes once a field it is about changes) tied to those fields for
 * a screen reader: each is aria-invalid and described by the message, and the focus goes to the
 * first of them (in the form's order) each time an error is shown. A message about one field is
 * shown at it (`messageAt`), one about several or none below the form (`formMessage`), both as an
 * alert. Ids: `${prefix}-${field}-error` at a field, `${prefix}-error` for the form.
 */
export function useFieldError(prefix: string, form: RefObject<HTMLFormElement | null>) {
  const error = useFormError();
  const fields = error.fields ?? [];
  const alone = fields.length === 1 ? fields[0] : undefined;
  const messageId = alone === undefined ? `${prefix}-error` : `${prefix}-${alone}-error`;

  // Each error shown moves the focus to the first of its fields (none: the focus stays).
  const { shown } = error;
  useEffect(() => {
    const first = Array.from(form.current?.elements ?? []).find((el) =>
      shown?.fields?.includes(el.getAttribute('name') ?? ''),
    );
    if (first instanceof HTMLElement) first.focus();
  }, [shown, form]);

  return {
    /** Shows `message`, caused by `fields` (null: by the form as a whole), and focuses the first. */
    show: error.show,
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
    messageAt: (name: string) =>
      alone === name && (
        <p id={messageId} className="field-error" role="alert">
          {error.message}
        </p>
      ),
    /** The message, when it is about several fields or none: shown at the end of the form. */
    formMessage: () =>
      error.message !== null &&
      alone === undefined && (
        <p id={messageId} className="form-error" role="alert">
          {error.message}
        </p>
      ),
  };
}
