import type { Page, Locator } from '@playwright/test';
import { checkPage, expect } from './app.ts';
import type { User } from './api.ts';

/**
 * Helpers of the workspace and editor specs: reading what the server holds (as the author, through
 * the real API), and the editor's surface.
 */
const root = () => `${process.env.E2E_ORIGIN}${process.env.E2E_BASE_PATH ?? ''}`;

export async function apiGet<T>(user: User, path: string): Promise<T> {
  const res = await fetch(`${root()}${path}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  if (!res.ok) throw new Error(`GET ${path} -> ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The status of a GET: for checking that something is gone. */
export async function apiStatus(user: User, path: string): Promise<number> {
  const res = await fetch(`${root()}${path}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  return res.status;
}

export interface ServerChapter {
  id: number;
  title: string;
  content: string;
  version: number;
  is_published: boolean;
  chapter_order: number;
  updated_at: string;
}

export const serverChapter = (user: User, id: number) =>
  apiGet<ServerChapter>(user, `/api/chapters/${id}`);

export const authorChapters = async (user: User, bookId: number) =>
  (
    await apiGet<{ chapters: ServerChapter[] }>(user, `/api/authors/books/${bookId}/chapters`)
  ).chapters.sort((a, b) => a.chapter_order - b.chapter_order);

/** The start of a chapter's local draft keys, before the chapter id (features/editor/drafts.ts). */
export const draftKeyPrefix = 'inkwell.chapter-draft.';

/** This browser's local drafts of a chapter, one per tab that kept one (features/editor/drafts.ts). */
export const chapterDrafts = (page: Page, chapterId: number): Promise<string[]> =>
  page.evaluate(
    (prefix) =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith(prefix))
        .map((key) => localStorage.getItem(key)!),
    `${draftKeyPrefix}${chapterId}.`,
  );

/** A toast with this exact text. */
export const toast = (page: Page, text: string): Locator =>
  page.getByTestId('toast').filter({ hasText: text });

/** The chapter editor's writing surface. */
export const editorText = (page: Page): Locator =>
  page.getByRole('textbox', { name: 'Chapter text' });

/** Replaces the chapter text by typing, as a person would. */
export async function typeChapter(page: Page, text: string) {
  const box = editorText(page);
  await box.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/** Waits until the server's copy of a chapter contains the text. */
export async function expectServerContent(
  user: User,
  chapterId: number,
  text: string,
  timeout = 15_000,
) {
  await expect
    .poll(async () => (await serverChapter(user, chapterId)).content, { timeout })
    .toContain(text);
}

/**
 * checkPage (axe + screenshot) on a workspace page, after closing the toasts of earlier steps: a
 * toast caught mid-fade has, for that instant, too little contrast to be judged fairly.
 */
export async function checkWorkspacePage(page: Page, name: string) {
  const toasts = page.getByTestId('toast');
  await expect(async () => {
    if ((await toasts.count()) > 0) {
      await toasts
        .first()
        .getByRole('button', { name: 'Close notification' })
        .click({ timeout: 2_000 });
    }
    expect(await toasts.count()).toBe(0);
  }).toPass({ timeout: 20_000 });
  await checkPage(page, name);
}
