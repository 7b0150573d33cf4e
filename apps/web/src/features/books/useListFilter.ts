import { useSearchParams } from 'react-router';
import { isApiError } from '../../lib/api.ts';
import { useFiltersOff } from '../../lib/filtered.ts';
import { activeFilterCount, apiFilterQuery, readFilters, type FilterScope } from './filters.ts';

/**
 * A list page's filters from its address: the API filter query (its query key too) and whether
 * any filter narrows the list (the empty state says so).
 */
export function useListFilter(scope: FilterScope) {
  const [params] = useSearchParams();
  const [filtersOff] = useFiltersOff();
  const filters = readFilters(params, scope);
  return { query: apiFilterQuery(filters, filtersOff), narrowed: activeFilterCount(filters) > 0 };
}

/** What a refused list says: the server names the filter it could not take. */
export const listErrorText = (error: unknown, what: string) =>
  isApiError(error) && error.status === 400
    ? `Could not load ${what}: ${error.detail}`
    : `Could not load ${what}.`;
