import { useCallback } from 'react';
import { useBeforeUnload, useBlocker } from 'react-router';
import { Modal } from '../../../components/Modal.tsx';

/**
 * Asks before leaving the editor while something typed would not reach the server: `lost` says
 * what, in the question's words (null: nothing, leave freely). Another page of the app asks in
 * a dialog; closing or reloading the tab, in the browser's own question.
 */
export function LeaveGuard({ lost }: { lost: string | null }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      lost !== null && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (lost === null) return;
        event.preventDefault();
        // Older browsers show the prompt only when returnValue is set.
        event.returnValue = '';
      },
      [lost],
    ),
  );
  const open = blocker.state === 'blocked';
  return (
    <Modal open={open} title="Leave without saving?" onClose={() => blocker.reset?.()}>
      <p>{lost}</p>
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
