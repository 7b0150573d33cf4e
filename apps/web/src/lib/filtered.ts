import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { api } from './api.ts';

/**
 * A list as a signed-in reader meets it (issue 21): the books their saved exclusions left, and how
 * many those exclusions removed. The server says the count in a header, beside the JSON body.
 */
export interface Filtered<T> {
  items: T;
  hidden: number;
}

/** How many books the reader's saved exclusions removed from an answer: 0 when it says none. */
export function hiddenCount(headers: Headers): number {
  const n = Number(headers.get(FILTERED_HIDDEN_HEADER));
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** GET of a list the reader's exclusions narrow: its body and the hidden count. */
export async function getFiltered<T>(path: string, signal?: AbortSignal): Promise<Filtered<T>> {
  const { body, headers } = await api.getWithHeaders<T>(path, signal);
  return { items: body, hidden: hiddenCount(headers) };
}

/** The page address's switch that leaves the saved exclusions out, as the API spells it too. */
export const FILTERS_PARAM = 'filters';
export const FILTERS_OFF = 'off';

/** `path` with `filters=off` added when `off`: the API's "show everything for once". */
export function withFiltersOff(path: string, off: boolean): string {
  if (!off) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${FILTERS_PARAM}=${FILTERS_OFF}`;
}

/**
 * Whether this page shows everything despite the reader's saved exclusions ("show anyway"). It is
 * in the address, like every other filter: a reload, the back button and a shared link keep it.
 */
export function useFiltersOff(): [boolean, (off: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const off = params.get(FILTERS_PARAM) === FILTERS_OFF;
  const setOff = useCallback(
    (next: boolean) =>
      setParams((current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set(FILTERS_PARAM, FILTERS_OFF);
        else updated.delete(FILTERS_PARAM);
        return updated;
      }),
    [setParams],
  );
  return [off, setOff];
}
