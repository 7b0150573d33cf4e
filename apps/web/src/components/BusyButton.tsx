import type { ButtonHTMLAttributes, Ref } from 'react';

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement>;

/**
 * Buttons that ask nothing more while their work runs (`busy`), yet keep the keyboard's focus: a
 * disabled button drops it to the page, and a message shown afterwards (a form's error) finds the
 * keyboard nowhere. While busy they are aria-disabled (styled as disabled) and their clicks are
 * ignored. `disabled` stays for what is not "busy" (nothing to send yet).
 *
 * BusyButton is a plain button (`ref` reaches the <button>); SubmitButton sends its form.
 */
export function BusyButton({
  busy,
  onClick,
  ...button
}: Omit<ButtonProps, 'onClick' | 'type'> & {
  busy: boolean;
  onClick(): void;
  ref?: Ref<HTMLButtonElement>;
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

/** A form's submit button: while `busy` (its request runs) it does not send the form again. */
export function SubmitButton({
  busy,
  ...button
}: Omit<ButtonProps, 'onClick' | 'type'> & { busy: boolean }) {
  return (
    <button
      {...button}
      type="submit"
      aria-disabled={busy}
      onClick={(e) => {
        // Cancelling the click cancels the submission. This covers Enter too: HTML's implicit
        // submission (Enter in a text field) fires a synthetic click at the form's default button,
        // so this same check keeps Enter from sending the form a second time.
        if (busy) e.preventDefault();
      }}
    />
  );
}
