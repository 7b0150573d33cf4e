import { plural } from '../lib/format.ts';
import { useFiltersOff } from '../lib/filtered.ts';
import { useSession } from '../lib/session.tsx';

/** The line's words: what the reader's saved exclusions removed, or that they are off here. */
const filteredText = (hidden: number) =>
  `Filtered: ${plural(hidden, 'book', 'books')} hidden by your filters.`;
const FILTERS_OFF_TEXT = 'Your filters are off on this page: everything is shown.';
/** A list's empty state when the saved exclusions, not a want of books, emptied it. */
export const ALL_HIDDEN_TEXT = 'Your filters hide every book here.';

/**
 * "Filtered: 3 books hidden" with a "Show anyway" button, wherever a signed-in reader's saved
 * exclusions removed books from a list (`hidden`, from the answer's header); once shown anyway,
 * the line says so and offers to filter again. The switch is the page address's `filters=off`.
 */
export function FilteredNotice({
  hidden,
  sayOff = true,
}: {
  hidden: number;
  /** False where several lists share a page: one notice of its own says the filters are off. */
  sayOff?: boolean;
}) {
  const { state } = useSession();
  const [off, setOff] = useFiltersOff();
  if (state.status !== 'in' || (off ? !sayOff : hidden === 0)) return null;
  return (
    <p className="filtered-notice" role="status">
      {off ? FILTERS_OFF_TEXT : filteredText(hidden)}{' '}
      <button
        type="button"
        className="button button-small button-secondary"
        onClick={() => setOff(!off)}
      >
        {off ? 'Apply my filters' : 'Show anyway'}
      </button>
    </p>
  );
}
