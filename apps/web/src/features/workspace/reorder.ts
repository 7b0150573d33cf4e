/**
 * The chapter order in the sidebar (SPEC section 4): dragging reorders locally and renumbers from 1;
 * save and reset are offered only while the local order differs from the saved one.
 */
export interface ReorderState {
  /** Chapter ids in the order the server has. */
  saved: readonly number[];
  /** Chapter ids in the order shown. */
  order: readonly number[];
}

export type ReorderAction =
  /** The server's list arrived or changed (a chapter added or deleted). */
  | { type: 'sync'; ids: readonly number[] }
  | { type: 'move'; id: number; overId: number }
  | { type: 'reset' }
  /** The server accepted an order. */
  | { type: 'saved'; ids: readonly number[] };

export const initialReorder = (ids: readonly number[] = []): ReorderState => ({
  saved: ids,
  order: ids,
});

const sameOrder = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

export const isDirty = (state: ReorderState): boolean => !sameOrder(state.saved, state.order);

function move(ids: readonly number[], from: number, to: number): number[] {
  const next = [...ids];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

export function reorderReducer(state: ReorderState, action: ReorderAction): ReorderState {
  switch (action.type) {
    case 'sync': {
      if (!isDirty(state)) return initialReorder(action.ids);
      // Keep the author's unsaved arrangement of the chapters that still exist; new ones go last.
      const present = new Set(action.ids);
      const kept = state.order.filter((id) => present.has(id));
      const added = action.ids.filter((id) => !kept.includes(id));
      return { saved: action.ids, order: [...kept, ...added] };
    }
    case 'move': {
      const from = state.order.indexOf(action.id);
      const to = state.order.indexOf(action.overId);
      if (from < 0 || to < 0 || from === to) return state;
      return { ...state, order: move(state.order, from, to) };
    }
    case 'reset':
      return { ...state, order: state.saved };
    case 'saved':
      return initialReorder(action.ids);
  }
}

/** The body of PUT /api/books/{id}/chapters: every chapter with its 1-based position. */
export const reorderPayload = (state: ReorderState) =>
  state.order.map((id, i) => ({ id, chapter_order: i + 1 }));
