import type { Chapter } from '@inkwell/contract';
import { AUTHOR_NOTE_MAX_LENGTH } from '@inkwell/contract/constants';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { relativeTo } from '../src/features/books/components/ReleaseSchedule.tsx';
import { ScheduleControl } from '../src/features/editor/components/ScheduleControl.tsx';
import { changeSchedule } from '../src/features/editor/scheduleChange.ts';
import { AuthorNotes } from '../src/features/editor/components/AuthorNotes.tsx';
import { textToParagraphs } from '../src/lib/plainText.ts';
import { ApiError } from '../src/lib/api.ts';

/** Issue 20: the editor's Schedule choice, and the book page's "Next chapter in ...". */

// The picker reads wall-clock times in the author's zone: a zone other than UTC (with daylight
// saving) is the one where reading them as UTC would show. Set before any date is made here.
process.env.TZ = 'America/New_York';
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const localValue = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

describe('the Schedule choice', () => {
  it('reads the picked time in the author’s zone, which it names, and sends it as an instant', async () => {
    const onSchedule = vi.fn().mockResolvedValue(undefined);
    render(<ScheduleControl publishAt={null} disabled={false} onSchedule={onSchedule} />);
    const open = screen.getByRole('button', { name: 'Schedule' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
    const picker = screen.getByLabelText(`Publish on (time zone: ${zone})`);

    const when = new Date(Date.now() + 3 * 3_600_000);
    when.setMilliseconds(0);
    fireEvent.input(picker, { target: { value: localValue(when) } });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(when.toISOString());
  });

  it('runs in New York, and sends a picked wall-clock time there as the right UTC instant', async () => {
    expect(zone).toBe('America/New_York');
    const onSchedule = vi.fn().mockResolvedValue(undefined);
    render(<ScheduleControl publishAt={null} disabled={false} onSchedule={onSchedule} />);
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    const picker = screen.getByLabelText('Publish on (time zone: America/New_York)');
    // 9 in the morning in New York: 13:00 UTC in summer (EDT), 14:00 in winter (EST).
    fireEvent.input(picker, { target: { value: '2031-07-06T09:00:00' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(onSchedule).toHaveBeenLastCalledWith('2031-07-06T13:00:00.000Z');
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    fireEvent.input(screen.getByLabelText(/Publish on/), {
      target: { value: '2031-12-06T09:00:00' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(onSchedule).toHaveBeenLastCalledWith('2031-12-06T14:00:00.000Z');
  });

  it('refuses a time in the past without asking the server, and shows the server’s refusal', async () => {
    const onSchedule = vi
      .fn()
      .mockRejectedValue(new ApiError(400, 'publish_at must be in the future', 'validation'));
    render(<ScheduleControl publishAt={null} disabled={false} onSchedule={onSchedule} />);
    await userEvent.click(screen.getByRole('button', { name: 'Schedule' }));
    const picker = screen.getByLabelText(/Publish on/);
    fireEvent.input(picker, { target: { value: localValue(new Date(Date.now() - 60_000)) } });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(screen.getByRole('alert').textContent).toContain('Choose a time in the future.');
    expect(picker.getAttribute('aria-invalid')).toBe('true');
    expect(onSchedule).not.toHaveBeenCalled();

    fireEvent.input(picker, { target: { value: localValue(new Date(Date.now() + 60_000)) } });
    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('publish_at must be in the future'),
    );
  });

  it('shows a schedule with its zone, and cancels it', async () => {
    const onSchedule = vi.fn().mockResolvedValue(undefined);
    render(
      <ScheduleControl
        publishAt="2031-05-06T07:08:00.000Z"
        disabled={false}
        onSchedule={onSchedule}
      />,
    );
    expect(screen.getByText(/^Scheduled for .*2031/).textContent).toContain(`(${zone})`);
    expect(screen.queryByRole('button', { name: 'Schedule' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(null);
  });
});

describe('a schedule changed as its release goes out', () => {
  const chapter = (fields: Partial<Chapter>) => ({ id: 1, ...fields }) as Chapter;
  const alreadyPublished = new ApiError(
    409,
    'This chapter is already published: only a draft can be scheduled',
    'conflict',
  );

  it('answers the released chapter when the server says it is already published', async () => {
    const published = chapter({ is_published: true, publish_at: null });
    const answer = await changeSchedule(
      () => Promise.reject(alreadyPublished),
      () => Promise.resolve(published),
    );
    expect(answer).toEqual({ chapter: published, released: true });
  });

  it('answers a cancel that went through as not released', async () => {
    const draft = chapter({ is_published: false, publish_at: null });
    const read = vi.fn();
    expect(await changeSchedule(() => Promise.resolve(draft), read)).toEqual({
      chapter: draft,
      released: false,
    });
    expect(read).not.toHaveBeenCalled();
  });

  it('passes on any other refusal, and a 409 for a chapter still a draft', async () => {
    const draft = chapter({ is_published: false });
    const other = new ApiError(400, 'publish_at must be in the future', 'validation');
    await expect(
      changeSchedule(
        () => Promise.reject(other),
        () => Promise.resolve(draft),
      ),
    ).rejects.toBe(other);
    await expect(
      changeSchedule(
        () => Promise.reject(alreadyPublished),
        () => Promise.resolve(draft),
      ),
    ).rejects.toBe(alreadyPublished);
  });
});

describe("the author's notes", () => {
  const linked = '<p>See <a href="https://example.test/map">the map</a>, <em>please</em>.</p>';
  const notes = (onSave = vi.fn(), onUnsavedChange = vi.fn()) => {
    render(
      <AuthorNotes
        noteBefore={linked}
        noteAfter="<p>Thanks.</p>"
        disabled={false}
        onSave={onSave}
        onUnsavedChange={onUnsavedChange}
      />,
    );
    return {
      before: screen.getByLabelText('Note before the chapter'),
      after: screen.getByLabelText('Note after the chapter'),
      save: screen.getByRole('button', { name: 'Save notes' }),
    };
  };

  it('sends only the note that changed, so the other keeps its links and emphasis', async () => {
    const onSave = vi.fn().mockResolvedValue({ note_before: linked, note_after: '<p>Bye.</p>' });
    const { after, save } = notes(onSave);
    fireEvent.input(after, { target: { value: 'Bye.' } });
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith({ note_after: '<p>Bye.</p>' });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Notes saved.'));
    // A note typed back to its saved text is not sent either.
    fireEvent.input(after, { target: { value: 'Bye!' } });
    fireEvent.input(after, { target: { value: 'Bye.' } });
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledTimes(1);
  });

  it('says when typed notes are unsaved, for the editor to ask before leaving', async () => {
    let answer: (chapter: object) => void = () => undefined;
    const onSave = vi.fn(() => new Promise((resolve) => (answer = resolve)));
    const onUnsavedChange = vi.fn();
    const { before, save } = notes(onSave, onUnsavedChange);
    expect(onUnsavedChange).toHaveBeenLastCalledWith(false);
    fireEvent.input(before, { target: { value: 'New words' } });
    expect(onUnsavedChange).toHaveBeenLastCalledWith(true);
    expect(screen.getByRole('status').textContent).toBe('Notes not saved yet.');
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledWith({ note_before: '<p>New words</p>' });
    answer({ note_before: '<p>New words</p>', note_after: '<p>Thanks.</p>' });
    await waitFor(() => expect(onUnsavedChange).toHaveBeenLastCalledWith(false));
  });

  it('measures a note as the server does, by the HTML it is sent as', async () => {
    const onSave = vi.fn();
    const { after, save } = notes(onSave);
    // Shorter than the limit as text, longer once every line break is a <br>.
    const text = 'ab\n'.repeat(Math.floor(AUTHOR_NOTE_MAX_LENGTH / 3) - 10);
    expect(text.length).toBeLessThan(AUTHOR_NOTE_MAX_LENGTH);
    expect(textToParagraphs(text).length).toBeGreaterThan(AUTHOR_NOTE_MAX_LENGTH);
    fireEvent.input(after, { target: { value: text } });
    expect(after.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/characters too long/)).toBeTruthy();
    await userEvent.click(save);
    expect(screen.getByRole('alert').textContent).toBe('Shorten the note before saving it.');
    expect(onSave).not.toHaveBeenCalled();
    // At the limit as sent, it goes.
    const fits = 'x'.repeat(AUTHOR_NOTE_MAX_LENGTH - '<p></p>'.length);
    fireEvent.input(after, { target: { value: fits } });
    expect(after.getAttribute('aria-invalid')).toBeNull();
    await userEvent.click(save);
    expect(onSave).toHaveBeenCalledWith({ note_after: `<p>${fits}</p>` });
  });
});

describe('the next release, relative', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it('says the largest unit that fits', () => {
    expect(relativeTo('2030-01-03T05:00:00Z', now)).toBe('in 2 days');
    expect(relativeTo('2030-01-01T03:30:00Z', now)).toBe('in 3 hours');
    expect(relativeTo('2030-01-01T00:05:10Z', now)).toBe('in 5 minutes');
    expect(relativeTo('2030-01-01T00:00:09Z', now)).toBe('in 9 seconds');
  });
});
