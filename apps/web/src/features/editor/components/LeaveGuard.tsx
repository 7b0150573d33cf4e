import { useBlocker } from 'react-router';
import { Modal } from '../../../components/Modal.tsx';

/** Why leaving would lose something, in the question's words. */
const TEXT_KEPT_HERE =
  'Your latest changes are not on the server yet. They stay on this device, and you will be offered them when you open this chapter again.';

/**
 * Asks before leaving the editor for another page of the app while something typed would not
 * reach the server: text that cannot (a failed save, an open conflict; plain unsaved typing needs
 * no question, leaving saves it), or author's notes not saved (`message` says what is lost).
 */
export function LeaveGuard({
  when,
  message = TEXT_KEPT_HERE,
}: {
  when: boolean;
  message?: string;
}) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );
  const open = blocker.state === 'blocked';
  return (
    <Modal open={open} title="Leave without saving?" onClose={() => blocker.reset?.()}>
      <p>{message}</p>
      <div className="modal-actions">
        <button type="button" className="button button-quiet" onClick={() => blocker.reset?.()}>
          Stay
        </button>
        <button type="button" className="button button-danger" onClick={() => blocker.proceed?.()}>
          Leave
        </button>
      </div>
    </Modal>
  );
}
