import type { Book, ChapterSummary } from '@inkwell/contract';
import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { useLeaveGuard, type Leaves } from '../../../components/LeaveGuard.tsx';
import { Loading, Status } from '../../../components/Status.tsx';
import { paths } from '../../../lib/paths.ts';
import { readChaptersQuery } from '../../../lib/query.ts';
import { newChapterTitle } from '../../../lib/titles.ts';
import { authorChaptersQuery, useCreateChapter, useReorderChapters } from '../api/workspace.ts';
import { workspacePaths } from '../paths.ts';
import { initialReorder, isDirty, reorderPayload, reorderReducer } from '../reorder.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** What leaving the book's workspace with an unsaved chapter order loses (the leave guard asks). */
export const ORDER_UNSAVED =
  'The new chapter order is not saved. Leave, and the chapters keep their old order.';

const GRIP = 'M9 5.5h.01M15 5.5h.01M9 12h.01M15 12h.01M9 18.5h.01M15 18.5h.01';
const CHECK = 'm9 16.2-4.2-4.2-1.4 1.4L9 19 21 7l-1.4-1.4z';

interface RowProps {
  chapter: ChapterSummary;
  position: number;
  bookId: number;
  isRead: boolean;
}

/** One chapter: a drag handle (mouse or keyboard), its 1-based position, the link, draft and read marks. */
function SortableChapter({ chapter, position, bookId, isRead }: RowProps) {
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id: chapter.id });
  return (
    <li
      ref={setNodeRef}
      className={`workspace-chapter${isDragging ? ' is-dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      data-testid="workspace-chapter"
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="drag-handle"
        {...attributes}
        {...listeners}
        aria-label={`Move ${chapter.title}`}
      >
        <svg
          aria-hidden="true"
          focusable="false"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="3"
          strokeLinecap="round"
        >
          <path d={GRIP} />
        </svg>
      </button>
      <span className="chapter-number">{position}</span>
      <NavLink className="workspace-chapter-link" to={workspacePaths.chapter(bookId, chapter.id)}>
        {chapter.title}
      </NavLink>
      {!chapter.is_published &&
        (chapter.publish_at ? (
          <span className="chapter-draft chapter-scheduled">
            Scheduled for {formatDateTime(chapter.publish_at)}
          </span>
        ) : (
          <span className="chapter-draft">Draft</span>
        ))}
      {isRead && (
        <span className="read-mark" title="Read">
          <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="18" height="18">
            <path fill="currentColor" d={CHECK} />
          </svg>
          <span className="visually-hidden">Read</span>
        </span>
      )}
    </li>
  );
}

/**
 * The book workspace sidebar (SPEC section 2): Back to Workspace, Edit Book Details, View Book Page,
 * Add Chapter and the chapter list. Dragging (mouse, or Space and arrow keys) reorders locally and
 * renumbers from 1; Save Order and Reset appear only while the order differs from the saved one,
 * and leaving the book's workspace meanwhile asks first.
 */
export function ChapterSidebar({ book }: { book: Book }) {
  const chapters = useQuery(authorChaptersQuery(book.id));
  const read = useQuery(readChaptersQuery());
  const [order, dispatch] = useReducer(reorderReducer, undefined, () => initialReorder());
  const [announcement, setAnnouncement] = useState('');

  // The server's order, as a stable value: a refetch with the same order changes nothing.
  const serverIds = chapters.data?.map((c) => c.id).join(',');
  useEffect(() => {
    if (serverIds !== undefined)
      dispatch({ type: 'sync', ids: serverIds ? serverIds.split(',').map(Number) : [] });
  }, [serverIds]);

  const byId = useMemo(() => new Map((chapters.data ?? []).map((c) => [c.id, c])), [chapters.data]);
  const shown = order.order.filter((id) => byId.has(id));
  const dirty = isDirty(order);
  // The order is kept while the author moves between the pages of this book's workspace (the
  // sidebar stays): only leaving the book's workspace drops it.
  const leavesBook = useCallback<Leaves>(
    (_current, next) => {
      const workspace = workspacePaths.book(book.id);
      return next.pathname !== workspace && !next.pathname.startsWith(`${workspace}/`);
    },
    [book.id],
  );
  useLeaveGuard(dirty ? ORDER_UNSAVED : null, leavesBook);

  const add = useCreateChapter(book.id, {
    onSuccess: (chapter) => setAnnouncement(`Added ${chapter.title}.`),
    onError: (error) => console.error('Could not add a chapter', error),
  });
  const addChapter = () => {
    const list = chapters.data ?? [];
    add.mutate({ title: newChapterTitle(list.map((c) => c.title)), order: list.length + 1 });
  };

  const save = useReorderChapters(book.id, {
    onSuccess: (data) => {
      const saved = [...data.chapters].sort((a, b) => a.chapter_order - b.chapter_order);
      dispatch({ type: 'saved', ids: saved.map((c) => c.id) });
      setAnnouncement('Chapter order saved.');
    },
    // Saving the order fails silently in the spec (section 8); the Save button stays for another try.
    onError: (error) => console.error('Could not save the chapter order', error),
  });

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const titleOf = (id: UniqueIdentifier) => byId.get(Number(id))?.title ?? 'The chapter';
  const positionOf = (id: UniqueIdentifier) =>
    `position ${shown.indexOf(Number(id)) + 1} of ${shown.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${titleOf(active.id)}, at ${positionOf(active.id)}.`,
    onDragOver: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} is over ${positionOf(over.id)}.`
        : `${titleOf(active.id)} is outside the list.`,
    onDragEnd: ({ active, over }) =>
      over
        ? `${titleOf(active.id)} dropped at ${positionOf(over.id)}. Save the order to keep it.`
        : `${titleOf(active.id)} dropped back in place.`,
    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) dispatch({ type: 'move', id: Number(active.id), overId: Number(over.id) });
  };

  let list;
  if (chapters.isPending) list = <Loading />;
  else if (chapters.isError) list = <Status kind="error">Could not load the chapters.</Status>;
  else if (shown.length === 0) list = <Status kind="empty">No Chapters.</Status>;
  else
    list = (
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move a chapter, press Space or Enter, move it with the arrow keys, then press Space or Enter to drop it, or Escape to cancel.',
          },
        }}
      >
        <SortableContext items={shown} strategy={verticalListSortingStrategy}>
          <ol className="workspace-chapters" aria-label="Chapters in reading order">
            {shown.map((id, i) => (
              <SortableChapter
                key={id}
                chapter={byId.get(id)!}
                position={i + 1}
                bookId={book.id}
                isRead={read.data?.has(id) ?? false}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    );

  return (
    <div className="workspace-sidebar-inner">
      <p className="workspace-book-name">{book.title}</p>
      <nav aria-label="Book">
        <ul className="workspace-links">
          <li>
            <Link to={workspacePaths.home}>Back to Workspace</Link>
          </li>
          <li>
            <NavLink end to={workspacePaths.book(book.id)}>
              Edit Book Details
            </NavLink>
          </li>
          <li>
            <Link to={paths.book(book.id)}>View Book Page</Link>
          </li>
          <li>
            <NavLink to={workspacePaths.stats(book.id)}>Stats</NavLink>
          </li>
        </ul>
      </nav>
      <section className="workspace-chapter-section" aria-labelledby="workspace-chapters-title">
        <div className="workspace-chapters-head">
          <h2 id="workspace-chapters-title">Chapters</h2>
          <button
            type="button"
            className="button button-small"
            onClick={addChapter}
            disabled={!chapters.data || add.isPending}
          >
            Add Chapter
          </button>
        </div>
        {list}
        {dirty && (
          <div className="reorder-actions">
            <button
              type="button"
              className="button button-small"
              onClick={() => save.mutate(reorderPayload(order))}
              disabled={save.isPending}
            >
              {save.isPending ? 'Saving...' : 'Save Order'}
            </button>
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={() => dispatch({ type: 'reset' })}
              disabled={save.isPending}
            >
              Reset
            </button>
          </div>
        )}
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
      </section>
    </div>
  );
}
