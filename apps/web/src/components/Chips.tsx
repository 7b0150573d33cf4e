/**
 * A list of removable chips: each item's name and a × button named "Remove {name}" (a book's
 * genres, a tag field's tags, My filters' hidden authors). Styled by `.chips` in styles.css.
 */
export function Chips<T>({
  label,
  items,
  name,
  itemKey = name,
  onRemove,
  isRemoving,
  className,
}: {
  label: string;
  items: readonly T[];
  name(item: T): string;
  /** The React key; the name unless names may repeat. */
  itemKey?(item: T): string | number;
  onRemove(item: T): void;
  /** Whether this item's removal is under way (its button waits). */
  isRemoving?(item: T): boolean;
  className?: string;
}) {
  return (
    <ul className={className ? `chips ${className}` : 'chips'} aria-label={label}>
      {items.map((item) => (
        <li key={itemKey(item)} className="chip">
          <span>{name(item)}</span>
          <button
            type="button"
            className="chip-remove"
            aria-label={`Remove ${name(item)}`}
            title={`Remove ${name(item)}`}
            onClick={() => onRemove(item)}
            disabled={isRemoving?.(item)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
