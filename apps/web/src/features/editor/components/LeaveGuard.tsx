import { useBlocker } from 'react-router';
import { Modal } from '../../../components/Modal.tsx';

/**
 * Asks before leaving the editor for another page of the app while text cannot reach the server
 * (a failed save, an open conflict). Plain unsaved typing needs no question: leaving saves it.
 */
export function LeaveGuard({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname,
  );
  const open = blocker.state === 'blocked';
  return (
    <Modal open={open} title="Leave without saving?" onClose={() => blocker.reset?.()}>
      <p>
        Your latest changes are not on the server yet. They stay on this device, and you will be
        offered them when you open this chapter again.
      </p>
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
