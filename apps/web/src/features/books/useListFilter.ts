import { useSearchParams } from 'react-router';
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
