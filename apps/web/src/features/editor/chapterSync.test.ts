import type { Chapter } from '@inkwell/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { ChapterSync, retryDelay, type ChapterSyncOptions } from './chapterSync.ts';
import { createDraftStore, type DraftStore } from './drafts.ts';

const chapter = (patch: Partial<Chapter> = {}): Chapter => ({
  id: 7,
  book_id: 3,
  title: 'One',
  chapter_order: 1,
  is_published: false,
  word_count: 1,
  version: 1,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
  content: '<p>start</p>',
  ...patch,
});

/** A fake editor and server around a ChapterSync, with a real draft store on an in-memory storage. */
function setup(options: Partial<ChapterSyncOptions> = {}) {
  const editor = { html: '<p>start</p>' };
  const server = { version: 1, content: '<p>start</p>' };
  const memory = new Map<string, string>();
  const drafts: DraftStore = createDraftStore({
    getItem: (k) => memory.get(k) ?? null,
    setItem: (k, v) => void memory.set(k, v),
    removeItem: (k) => void memory.delete(k),
    key: (i) => [...memory.keys()][i] ?? null,
    get length() {
      return memory.size;
    },
  });
  const save = vi.fn(async (body: { content: string; version: number }) => {
    if (body.version !== server.version)
      throw new ApiError(409, 'This chapter was changed elsewhere', 'conflict');
    server.version++;
    server.content = body.content;
    return chapter({
      version: server.version,
      content: body.content,
      updated_at: new Date().toISOString(),
    });
  });
  const load = vi.fn(async () => chapter({ version: server.version, content: server.content }));
  const onSaved = vi.fn();
  const onFailed = vi.fn();
  const sync = new ChapterSync({
    chapter: chapter(),
    read: () => editor.html,
    replace: (html) => {
      editor.html = html;
    },
    save,
    load,
    drafts,
    onSaved,
    onFailed,
    ...options,
  });
  const type = (html: string) => {
    editor.html = html;
    sync.changed();
  };
  /** Holds the next save on its way until the returned function is called; the server then takes it. */
  const holdNextSave = () => {
    let arrive!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrive = resolve));
    save.mockImplementationOnce(async (body) => {
      await inFlight;
      server.version++;
      server.content = body.content;
      return chapter({ version: server.version, content: body.content });
    });
    return arrive;
  };
  return { sync, editor, server, drafts, save, load, onSaved, onFailed, type, holdNextSave };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('autosave timer', () => {
  it('saves 5 s after the last keystroke, not before, and each keystroke restarts the wait', async () => {
    const { sync, save, onSaved, type, server } = setup();
    type('<p>a</p>');
    await vi.advanceTimersByTimeAsync(3_000);
    type('<p>ab</p>');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(save).not.toHaveBeenCalled();
    expect(sync.snapshot.status).toBe('dirty');

    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ content: '<p>ab</p>', version: 1, autosave: true });
    expect(server.content).toBe('<p>ab</p>');
    expect(onSaved).toHaveBeenCalledWith('auto', expect.objectContaining({ version: 2 }));
    expect(sync.snapshot).toMatchObject({ status: 'saved', version: 2 });
  });

  it('does nothing while nothing changed', async () => {
    const { save } = setup();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(save).not.toHaveBeenCalled();
  });

  it('a manual save goes at once, cancels the pending autosave and says so', async () => {
    const { sync, save, onSaved, type } = setup();
    type('<p>now</p>');
    await sync.save('manual');
    expect(save).toHaveBeenCalledTimes(1);
    expect(onSaved).toHaveBeenLastCalledWith('manual', expect.anything());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('keeps edits typed during a save dirty and saves them on their own timer, from the new version', async () => {
    const { sync, save, type, holdNextSave } = setup();
    type('<p>first</p>');
    const arrive = holdNextSave();
    const saving = sync.save('manual');
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledWith({ content: '<p>first</p>', version: 1 });
    type('<p>first and more</p>');
    arrive();
    await saving;
    expect(sync.snapshot.status).toBe('dirty');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(save).toHaveBeenLastCalledWith({
      content: '<p>first and more</p>',
      version: 2,
      autosave: true,
    });
    expect(sync.snapshot.status).toBe('saved');
  });

  it('sends edits typed during a save when the editor closes before the save is answered', async () => {
    const { sync, save, type, server, drafts, holdNextSave } = setup();
    type('<p>first</p>');
    const arrive = holdNextSave();
    const saving = sync.save('auto');
    await vi.advanceTimersByTimeAsync(0);
    type('<p>first and more</p>');
    sync.dispose(); // the author opened another chapter
    arrive();
    await saving;
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledTimes(2);
    expect(save).toHaveBeenLastCalledWith({
      content: '<p>first and more</p>',
      version: 2,
      autosave: true,
    });
    expect(server.content).toBe('<p>first and more</p>');
    expect(drafts.read(7)).toBeNull();
  });

  it('runs saves one at a time: a save asked for during another follows it with the new version', async () => {
    const { sync, save, type } = setup();
    type('<p>x</p>');
    const a = sync.save('auto');
    const b = sync.save('manual');
    await a;
    await b;
    await vi.advanceTimersByTimeAsync(0);
    expect(save.mock.calls.map(([body]) => body.version)).toEqual([1, 2]);
    expect(sync.snapshot.status).toBe('saved');
  });
});

describe('local drafts', () => {
  it('keeps a draft with the base version while changes are unsaved, and drops it once saved', async () => {
    const { drafts, type } = setup({ now: () => 1234 });
    type('<p>draft</p>');
    await vi.advanceTimersByTimeAsync(400);
    expect(drafts.read(7)).toEqual({
      chapterId: 7,
      bookId: 3,
      content: '<p>draft</p>',
      baseVersion: 1,
      savedAt: 1234,
      key: drafts.keyOf(7),
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(drafts.read(7)).toBeNull();
  });

  it('writes the pending draft at once on flush (leaving the page)', () => {
    const { sync, drafts, type } = setup();
    type('<p>leaving</p>');
    sync.flush();
    expect(drafts.read(7)?.content).toBe('<p>leaving</p>');
  });

  it('lets the offered copy go only once its own copy of a restored draft is kept', async () => {
    const taken = vi.fn();
    await setup().sync.restore('<p>kept here</p>', taken);
    expect(taken).toHaveBeenCalledTimes(1);
    // Storage full: the offered copy is the only one on the device, and stays.
    const full = createDraftStore({
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {},
      key: () => null,
      length: 0,
    });
    const refused = vi.fn();
    await setup({ drafts: full }).sync.restore('<p>not kept</p>', refused);
    expect(refused).not.toHaveBeenCalled();
  });

  it('restoring a draft puts it in the editor and saves it', async () => {
    const { sync, editor, server } = setup();
    await sync.restore('<p>from the draft</p>');
    expect(editor.html).toBe('<p>from the draft</p>');
    expect(server.content).toBe('<p>from the draft</p>');
    expect(sync.snapshot.status).toBe('saved');
  });

  it('writes its draft again when another tab removed it while its text is not on the server', async () => {
    const { sync, save, drafts, type } = setup();
    save.mockRejectedValue(new ApiError(413, 'Too large', 'too_large'));
    type('<p>cannot be saved yet</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('failed');
    // Another tab was offered this draft and discarded it.
    drafts.discard(drafts.read(7)!);
    sync.redraft();
    expect(drafts.read(7)?.content).toBe('<p>cannot be saved yet</p>');
  });

  it('does not write a draft again once its text is on the server', async () => {
    const { sync, drafts, type } = setup();
    type('<p>saved</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('saved');
    sync.redraft();
    expect(drafts.read(7)).toBeNull();
  });
});

describe('leaving the editor', () => {
  it('is idle only once the last save sent on leaving, and one typed during it, have landed', async () => {
    const { sync, server, editor, type, holdNextSave } = setup();
    type('<p>one</p>');
    const arrive = holdNextSave();
    void sync.save('manual');
    type('<p>one, two</p>');
    sync.dispose();
    let idle = false;
    const waiting = sync.whenIdle().then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(idle).toBe(false);
    arrive();
    await waiting;
    expect(server.content).toBe(editor.html);
  });
});

describe('failed saves', () => {
  it('keeps the text and the draft, warns once, retries with backoff and succeeds later', async () => {
    const offline = new ApiError(0, 'Could not reach the server.', 'network');
    const { sync, save, drafts, onFailed, type, server } = setup();
    save.mockRejectedValueOnce(offline).mockRejectedValueOnce(offline);
    type('<p>precious</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('failed');
    expect(sync.snapshot.failure?.message).toBe('You appear to be offline.');
    expect(drafts.read(7)?.content).toBe('<p>precious</p>');
    expect(onFailed).toHaveBeenCalledTimes(1);
    expect(onFailed.mock.calls[0]![1]).toBe(true);

    await vi.advanceTimersByTimeAsync(1_000); // first retry after 1 s: fails again
    expect(save).toHaveBeenCalledTimes(2);
    expect(onFailed.mock.calls[1]![1]).toBe(false);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(save).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1); // second retry after 2 s: goes through
    expect(save).toHaveBeenCalledTimes(3);
    expect(server.content).toBe('<p>precious</p>');
    expect(sync.snapshot.status).toBe('saved');
    expect(drafts.read(7)).toBeNull();
  });

  it('retries at once when asked (the browser came back online)', async () => {
    const { sync, save, type } = setup();
    save.mockRejectedValueOnce(new ApiError(503, 'down'));
    type('<p>y</p>');
    await sync.save('auto');
    expect(sync.snapshot.status).toBe('failed');
    sync.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(save).toHaveBeenCalledTimes(2);
    expect(sync.snapshot.status).toBe('saved');
  });

  it('renews the session before retrying after a 401', async () => {
    const reauthenticate = vi.fn(async () => undefined);
    const { sync, save, type } = setup({ reauthenticate });
    save.mockRejectedValueOnce(new ApiError(401, 'Not signed in'));
    type('<p>z</p>');
    await sync.save('auto');
    expect(sync.snapshot.failure?.signedOut).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reauthenticate).toHaveBeenCalledTimes(1);
    expect(sync.snapshot.status).toBe('saved');
  });

  it('does not retry what cannot succeed by itself, but saves again after the next edit', async () => {
    const { sync, save, type } = setup();
    save.mockRejectedValueOnce(new ApiError(413, 'too large'));
    type('<p>huge</p>');
    await sync.save('auto');
    expect(sync.snapshot.failure).toMatchObject({ retryAt: null });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(save).toHaveBeenCalledTimes(1);
    type('<p>smaller</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(sync.snapshot.status).toBe('saved');
  });

  it('grows the retry delay up to 15 s', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000,
    ]);
  });

  it('stops when the chapter was deleted', async () => {
    const { sync, save, drafts, type } = setup();
    save.mockRejectedValueOnce(new ApiError(404, 'Chapter not found'));
    type('<p>gone</p>');
    await sync.save('auto');
    expect(sync.snapshot.status).toBe('gone');
    expect(drafts.read(7)).toBeNull();
    // What was typed is nowhere else now: leaving must ask (ChapterEditorPage's LeaveGuard).
    expect(sync.hasUnsavedChanges).toBe(true);
    type('<p>gone again</p>');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(save).toHaveBeenCalledTimes(1);
  });
});

describe('a save whose answer was lost', () => {
  /** The server takes the next save, and its answer never comes back. */
  const takeAndLoseAnswer = ({ save, server }: ReturnType<typeof setup>) =>
    save.mockImplementationOnce(async (body) => {
      server.version++;
      server.content = body.content;
      throw new ApiError(0, 'Could not reach the server.', 'network');
    });

  it('is taken as ours: text typed since is saved from its version, with no conflict', async () => {
    const synced = setup();
    const { sync, save, type, server } = synced;
    type('<p>one</p>');
    takeAndLoseAnswer(synced);
    await sync.save('auto');
    expect(sync.snapshot.status).toBe('failed');
    type('<p>one two</p>');
    await vi.advanceTimersByTimeAsync(1_000); // the retry: 409, the server holding our 'one'
    await vi.advanceTimersByTimeAsync(0);
    expect(save.mock.calls.map(([body]) => [body.content, body.version])).toEqual([
      ['<p>one</p>', 1],
      ['<p>one two</p>', 1],
      ['<p>one two</p>', 2],
    ]);
    expect(sync.snapshot).toMatchObject({ status: 'saved', version: 3, theirs: null });
    expect(server.content).toBe('<p>one two</p>');
  });

  it('is still a conflict when another device saved after it', async () => {
    const synced = setup();
    const { sync, type, server } = synced;
    type('<p>one</p>');
    takeAndLoseAnswer(synced);
    await sync.save('auto');
    server.version++;
    server.content = '<p>from the phone</p>';
    type('<p>one two</p>');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sync.snapshot.status).toBe('conflict');
    expect(sync.snapshot.theirs?.content).toBe('<p>from the phone</p>');
  });
});

describe('two tabs: version conflicts', () => {
  it('on a 409 shows the server copy and pauses saving until the author chooses', async () => {
    const { sync, server, save, type } = setup();
    server.version = 2;
    server.content = '<p>other tab</p>';
    type('<p>this tab</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('conflict');
    expect(sync.snapshot.theirs).toMatchObject({ version: 2, content: '<p>other tab</p>' });
    type('<p>this tab, more</p>');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it("'mine' saves this tab's text over the newer version", async () => {
    const { sync, server, save, type } = setup();
    server.version = 2;
    type('<p>this tab</p>');
    await sync.save('auto');
    await vi.advanceTimersByTimeAsync(0);
    await sync.resolve('mine');
    expect(save).toHaveBeenLastCalledWith({ content: '<p>this tab</p>', version: 2 });
    expect(server.content).toBe('<p>this tab</p>');
    expect(sync.snapshot).toMatchObject({ status: 'saved', version: 3, theirs: null });
  });

  it("'theirs' puts the server's text in the editor, clean, based on its version", async () => {
    const { sync, server, editor, drafts, type } = setup();
    server.version = 5;
    server.content = '<p>other tab</p>';
    type('<p>this tab</p>');
    await sync.save('auto');
    await vi.advanceTimersByTimeAsync(0);
    await sync.resolve('theirs');
    expect(editor.html).toBe('<p>other tab</p>');
    expect(drafts.read(7)).toBeNull();
    expect(sync.snapshot).toMatchObject({ status: 'saved', version: 5 });
    type('<p>other tab, edited</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.content).toBe('<p>other tab, edited</p>');
  });
});

describe('other writes (rename, publish)', () => {
  it('keeps our version current after our own rename, so the next save is no conflict', async () => {
    const { sync, server, type } = setup();
    await sync.write(async () => chapter({ version: ++server.version, title: 'New' }), true);
    expect(sync.snapshot.version).toBe(2);
    type('<p>after rename</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('saved');
  });

  it('does not take over a version that someone else moved, so their text is not overwritten silently', async () => {
    const { sync, server, type } = setup();
    server.version = 3; // another tab saved twice
    await sync.write(async () => chapter({ version: ++server.version }), true);
    expect(sync.snapshot.version).toBe(1);
    type('<p>mine</p>');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(sync.snapshot.status).toBe('conflict');
  });

  it('settles before publishing: typing not yet autosaved is saved first, even with a save under way', async () => {
    const { sync, server, editor, type, holdNextSave } = setup();
    type('<p>first</p>');
    const arrive = holdNextSave();
    void sync.save('auto');
    // Typed while that save is on its way, inside the idle time: not saved by anything yet.
    type('<p>first, and the ending</p>');
    const settled = sync.settle();
    arrive();
    expect(await settled).toBe(true);
    expect(server.content).toBe(editor.html);
    expect(sync.snapshot.status).toBe('saved');
  });

  it('does not settle in a conflict or when the save fails: nothing may be published then', async () => {
    const { sync, server, save, type } = setup();
    server.version = 2; // another tab saved
    type('<p>mine</p>');
    expect(await sync.settle()).toBe(false);
    expect(sync.snapshot.status).toBe('conflict');

    const failing = setup();
    failing.save.mockRejectedValue(new ApiError(413, 'Too large', 'too_large'));
    failing.type('<p>too long</p>');
    expect(await failing.sync.settle()).toBe(false);
    expect(failing.sync.snapshot.status).toBe('failed');
    // Tried once: the failed save's own retries (with their backoff) go on from there.
    expect(failing.save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledTimes(1); // the conflict's one refused save
  });
});
