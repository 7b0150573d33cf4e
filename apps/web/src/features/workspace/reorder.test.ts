import { describe, expect, it } from 'vitest';
import {
  initialReorder,
  isDirty,
  reorderPayload,
  reorderReducer,
  type ReorderAction,
  type ReorderState,
} from './reorder.ts';

const run = (state: ReorderState, ...actions: ReorderAction[]) =>
  actions.reduce(reorderReducer, state);

describe('chapter reorder state', () => {
  it('starts clean, in the server order', () => {
    const state = initialReorder([1, 2, 3]);
    expect(isDirty(state)).toBe(false);
    expect(reorderPayload(state)).toEqual([
      { id: 1, chapter_order: 1 },
      { id: 2, chapter_order: 2 },
      { id: 3, chapter_order: 3 },
    ]);
  });

  it('moving a chapter onto another takes its place and renumbers from 1', () => {
    const state = run(initialReorder([1, 2, 3, 4]), { type: 'move', id: 4, overId: 2 });
    expect(state.order).toEqual([1, 4, 2, 3]);
    expect(isDirty(state)).toBe(true);
    expect(reorderPayload(state).map((c) => c.chapter_order)).toEqual([1, 2, 3, 4]);
    expect(reorderPayload(state)[1]).toEqual({ id: 4, chapter_order: 2 });
    expect(run(state, { type: 'move', id: 1, overId: 3 }).order).toEqual([4, 2, 3, 1]);
  });

  it('is clean again when the moves cancel out (save and reset disappear)', () => {
    const moved = run(initialReorder([1, 2, 3]), { type: 'move', id: 1, overId: 3 });
    expect(moved.order).toEqual([2, 3, 1]);
    const back = run(moved, { type: 'move', id: 1, overId: 2 });
    expect(back.order).toEqual([1, 2, 3]);
    expect(isDirty(back)).toBe(false);
  });

  it('ignores moves onto itself or of unknown chapters', () => {
    const start = initialReorder([1, 2]);
    expect(run(start, { type: 'move', id: 1, overId: 1 })).toBe(start);
    expect(run(start, { type: 'move', id: 9, overId: 1 })).toBe(start);
  });

  it('reset restores the saved order', () => {
    const state = run(
      initialReorder([1, 2, 3]),
      { type: 'move', id: 3, overId: 1 },
      { type: 'reset' },
    );
    expect(state.order).toEqual([1, 2, 3]);
    expect(isDirty(state)).toBe(false);
  });

  it('once saved, the new order is the saved one', () => {
    const moved = run(initialReorder([1, 2, 3]), { type: 'move', id: 3, overId: 1 });
    const saved = run(moved, { type: 'saved', ids: [3, 1, 2] });
    expect(saved).toEqual({ saved: [3, 1, 2], order: [3, 1, 2] });
    expect(isDirty(saved)).toBe(false);
    expect(run(saved, { type: 'reset' }).order).toEqual([3, 1, 2]);
  });

  it('follows the server list while clean', () => {
    expect(run(initialReorder([1, 2]), { type: 'sync', ids: [1, 2, 5] })).toEqual({
      saved: [1, 2, 5],
      order: [1, 2, 5],
    });
  });

  it('keeps an unsaved arrangement when chapters are added or deleted meanwhile', () => {
    const moved = run(initialReorder([1, 2, 3]), { type: 'move', id: 3, overId: 1 });
    const state = run(moved, { type: 'sync', ids: [1, 3, 4] });
    expect(state.order).toEqual([3, 1, 4]);
    expect(state.saved).toEqual([1, 3, 4]);
    expect(isDirty(state)).toBe(true);
  });
});
