import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useBeforeUnload, useBlocker, type BlockerFunction, type Location } from 'react-router';
import { Modal } from './Modal.tsx';

/**
 * Whether going from `current` to `next` leaves what a guard keeps, which leaving would lose.
 * Pathnames are the app's own, without the router's basename.
 */
export type Leaves = (current: Location, next: Location) => boolean;

/** The default rule: another page leaves; the same page with another ?query or #fragment does not. */
export const pathnameChanges: Leaves = (current, next) => current.pathname !== next.pathname;

interface Guard {
  lost: string;
  leaves: Leaves;
}

interface Guards {
  /** Registers a guard; the answer unregisters it. */
  add(guard: Guard): () => void;
}

const GuardsContext = createContext<Guards | null>(null);

/** What the guards that `current` → `next` leaves would lose, each sentence once. */
const losing = (guards: ReadonlySet<Guard>, current: Location, next: Location): string[] => [
  ...new Set([...guards].filter((guard) => guard.leaves(current, next)).map((guard) => guard.lost)),
];

/**
 * The app's one leave guard (mounted once, by the root layout, inside the router). React Router
 * allows a single active blocker, so the pages that can hold unsaved work do not block by
 * themselves: each says what leaving would lose through useLeaveGuard, and this one blocker asks
 * every registered guard. Another page of the app asks in a dialog that lists what each guard the
 * navigation leaves would lose; closing or reloading the tab, in the browser's own question.
 */
export function LeaveGuardProvider({ children }: { children: ReactNode }) {
  const [guards] = useState(() => new Set<Guard>());
  // Guards live outside React state (the blocker reads them during a navigation); a change
  // renders the dialog again, so it says what leaving would lose now.
  const [, changed] = useState(0);
  const [registry] = useState<Guards>(() => ({
    add(guard) {
      guards.add(guard);
      changed((n) => n + 1);
      return () => {
        guards.delete(guard);
        changed((n) => n + 1);
      };
    },
  }));

  // The navigation the blocker stopped last, as the guards' rules saw it (without the basename).
  const stopped = useRef<{ current: Location; next: Location } | null>(null);
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) => {
        if (losing(guards, currentLocation, nextLocation).length === 0) return false;
        stopped.current = { current: currentLocation, next: nextLocation };
        return true;
      },
      [guards],
    ),
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        // Closing the tab leaves every page: any guard with something to lose asks.
        if (guards.size === 0) return;
        event.preventDefault();
        // Older browsers show the prompt only when returnValue is set.
        event.returnValue = '';
      },
      [guards],
    ),
  );

  const open = blocker.state === 'blocked';
  const lost =
    open && stopped.current ? losing(guards, stopped.current.current, stopped.current.next) : [];
  // Nothing is lost any more (the last save landed while the question was open): leave.
  const nothingLeft = open && lost.length === 0;
  useEffect(() => {
    if (nothingLeft) blocker.proceed?.();
  }, [nothingLeft, blocker]);
  return (
    <GuardsContext.Provider value={registry}>
      {children}
      <Modal open={open} title="Leave without saving?" onClose={() => blocker.reset?.()}>
        {lost.map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
        <div className="modal-actions">
          <button type="button" className="button button-quiet" onClick={() => blocker.reset?.()}>
            Stay
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => blocker.proceed?.()}
          >
            Leave
          </button>
        </div>
      </Modal>
    </GuardsContext.Provider>
  );
}

/**
 * Asks before leaving while something would not reach the server: `lost` says what, in the
 * question's words (null: nothing, leave freely). `leaves` says which navigations leave it
 * (default: another page); a stable function (module-level or useCallback) keeps it registered
 * once. Registered while mounted and `lost` is not null, through the LeaveGuardProvider above;
 * without one (a component test that renders a page alone) nothing asks.
 */
export function useLeaveGuard(lost: string | null, leaves: Leaves = pathnameChanges) {
  const guards = useContext(GuardsContext);
  useLayoutEffect(() => {
    if (guards === null || lost === null) return;
    return guards.add({ lost, leaves });
  }, [guards, lost, leaves]);
}
