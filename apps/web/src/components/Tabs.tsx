import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  panel: () => ReactNode;
}

/**
 * Tabs as the ARIA authoring practices describe them: a tablist whose selected tab alone is in
 * the tab order, Left/Right (wrapping), Home and End move and select, and one tabpanel labelled
 * by its tab. Which tab is selected belongs to the caller (the URL, so it survives a reload and
 * can be linked to); only the selected panel is rendered.
 */
export function Tabs<K extends string>({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string;
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
}) {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const current = items.find((item) => item.key === selected) ?? items[0]!;
  const tabId = (key: K) => `${base}-tab-${key}`;
  const panelId = (key: K) => `${base}-panel-${key}`;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = items.findIndex((item) => item.key === current.key);
    const target = {
      ArrowRight: (index + 1) % items.length,
      ArrowLeft: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = items[target]!;
    onSelect(next.key);
    refs.current.get(next.key)?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className="tabs">
        {items.map((item) => {
          const isSelected = item.key === current.key;
          return (
            <button
              key={item.key}
              ref={(node) => {
                if (node) refs.current.set(item.key, node);
                else refs.current.delete(item.key);
              }}
              type="button"
              role="tab"
              id={tabId(item.key)}
              className="tab"
              aria-selected={isSelected}
              aria-controls={panelId(item.key)}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(item.key)}
              onKeyDown={onKeyDown}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={panelId(current.key)}
        aria-labelledby={tabId(current.key)}
        tabIndex={0}
        className="tab-panel"
      >
        {current.panel()}
      </div>
    </>
  );
}
