import { useEffect, useId, useState, type FormEvent } from 'react';
import { BusyButton, SubmitButton } from '../../../components/BusyButton.tsx';
import { Modal } from '../../../components/Modal.tsx';

interface TypedDeleteModalProps {
  /** What is being deleted; null when the modal is closed. */
  target: { kind: 'book' | 'chapter'; title: string } | null;
  onClose(): void;
  /** Deletes; a rejection keeps the modal open (SPEC section 4). */
  onConfirm(): Promise<void>;
}

/**
 * The delete confirmation of SPEC sections 2 and 5: Delete is enabled only once the typed text
 * equals the title exactly. Cancel, Escape and a click on the backdrop close it, except while the
 * delete is on its way.
 */
export function TypedDeleteModal({ target, onClose, onConfirm }: TypedDeleteModalProps) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);

  // A fresh, empty field each time the modal opens.
  useEffect(() => {
    setTyped('');
    setFailed(false);
  }, [target?.kind, target?.title]);

  const matches = target !== null && typed === target.title;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!matches || pending) return;
    setPending(true);
    setFailed(false);
    try {
      await onConfirm();
    } catch (error) {
      console.error(`Could not delete the ${target.kind}`, error);
      setFailed(true);
    } finally {
      setPending(false);
    }
  };

  // While the delete runs the modal stays: closed, it could not say that the delete failed.
  const close = () => {
    if (!pending) onClose();
  };
  const kind = target?.kind ?? 'book';
  return (
    <Modal open={target !== null} title={`Delete ${kind}`} onClose={close}>
      {target && (
        <form className="form" onSubmit={submit}>
          <p>
            This deletes <strong>{target.title}</strong>
            {kind === 'book' ? ' and all its chapters' : ''} for good.
          </p>
          <div className="field">
            <label htmlFor={`${id}-confirm`}>Type the {kind} title to confirm</label>
            <input
              id={`${id}-confirm`}
              value={typed}
              onChange={(e) => {
                setTyped(e.target.value);
                setFailed(false);
              }}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${id}-hint`}
            />
            <p id={`${id}-hint`} className="field-help">
              Exactly as written: {target.title}
            </p>
          </div>
          {failed && (
            <p className="form-error" role="alert">
              The {kind} could not be deleted. Please try again.
            </p>
          )}
          <div className="modal-actions">
            <BusyButton className="button button-quiet" busy={pending} onClick={onClose}>
              Cancel
            </BusyButton>
            <SubmitButton className="button button-danger" disabled={!matches} busy={pending}>
              {pending ? 'Deleting...' : 'Delete'}
            </SubmitButton>
          </div>
        </form>
      )}
    </Modal>
  );
}
