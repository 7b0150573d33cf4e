import { useCallback, useState } from 'react';

interface FormErrorState {
  message: string;
  /** The fields that caused it; null when it is not one field's (any change clears it). */
  fields: readonly string[] | null;
}

/**
 * A form's error message, kept with the fields that caused it (issue 23 §2): it clears as soon as
 * one of those fields changes, instead of staying on screen until the next submit while the user
 * has already fixed the problem.
 */
export function useFormError() {
  const [error, setError] = useState<FormErrorState | null>(null);
  /** Shows `message`, caused by `fields` (null: by the form as a whole). */
  const show = useCallback(
    (message: string, fields: readonly string[] | null = null) => setError({ message, fields }),
    [],
  );
  const clear = useCallback(() => setError(null), []);
  /** Tells that `field` changed: its error, or an error of the whole form, goes. */
  const changed = useCallback(
    (field: string) =>
      setError((e) => (e && (e.fields === null || e.fields.includes(field)) ? null : e)),
    [],
  );
  return {
    message: error?.message ?? null,
    /** The fields of the error shown; null when none is, or it is the whole form's. */
    fields: error?.fields ?? null,
    /** The error shown, a new object at each show (so an effect can follow each one). */
    shown: error,
    show,
    clear,
    changed,
  };
}

/** The `name` of the element an input event came from, for a form's onInput. */
export const fieldName = (event: { target: EventTarget | null }): string =>
  (event.target as { name?: unknown } | null)?.name?.toString() ?? '';
