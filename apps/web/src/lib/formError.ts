import { useCallback, useState } from 'react';
import { isApiError } from './api.ts';

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

/**
 * The fields an API error is about, among `fields`: the server names a field at the start of a
 * validation detail ("email: ..."), and a taken username or title says so in words. Null when it
 * names none of them.
 */
export function fieldsOfApiError(error: unknown, fields: readonly string[]): string[] | null {
  if (!isApiError(error)) return null;
  const named = /^([A-Za-z_]+)[.:]/.exec(error.detail)?.[1];
  if (named && fields.includes(named)) return [named];
  const mentioned = fields.filter((field) =>
    new RegExp(`\\b${field.replace(/_/g, ' ')}\\b`, 'i').test(error.detail),
  );
  return mentioned.length > 0 ? mentioned : null;
}

/** The `name` of the element an input event came from, for a form's onInput. */
export const fieldName = (event: { target: EventTarget | null }): string =>
  (event.target as { name?: unknown } | null)?.name?.toString() ?? '';
