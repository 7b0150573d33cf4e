import type { ButtonHTMLAttributes } from 'react';

/**
 * A button that asks nothing more while its work runs (`busy`), yet keeps the keyboard's focus:
 * a disabled button drops it to the page. It is aria-disabled then (styled as disabled) and its
 * clicks are ignored.
 */
export function BusyButton({
  busy,
  onClick,
  ...button
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick' | 'type'> & {
  busy: boolean;
  onClick(): void;
}) {
  return (
    <button
      type="button"
      {...button}
      aria-disabled={busy}
      onClick={() => {
        if (!busy) onClick();
      }}
    />
  );
}
