import type { ImportPlan, ImportPreview } from '@inkwell/contract';

/** What the author chose for one proposed chapter. */
export interface ChapterChoice {
  include: boolean;
  /** Put its text at the start of the next imported chapter. */
  merge: boolean;
  title: string;
}

/** The proposal as it stands: matter unticked (unless kept), titles as found. */
export const initialChoices = (preview: ImportPreview): ChapterChoice[] =>
  preview.chapters.map((c) => ({ include: c.included, merge: false, title: c.title }));

/** Whether an imported chapter comes after `index` for a merged one to join. */
function hasNextImported(choices: readonly ChapterChoice[], index: number): boolean {
  return choices.slice(index + 1).some((c) => c.include && !c.merge);
}

export interface Problems {
  /** About the choices as a whole (nothing ticked). */
  list: string | null;
  /** By chapter index. */
  titles: Map<number, string>;
  merges: Map<number, string>;
}

export const hasProblems = (p: Problems) =>
  p.list !== null || p.titles.size > 0 || p.merges.size > 0;

/** What stops the book from being made as chosen, in words the author can act on. */
export function problemsOf(choices: readonly ChapterChoice[]): Problems {
  const titles = new Map<number, string>();
  const merges = new Map<number, string>();
  choices.forEach((c, i) => {
    if (!c.include) return;
    if (c.title.trim() === '') titles.set(i, 'A chapter needs a title.');
    if (c.merge && !hasNextImported(choices, i))
      merges.set(i, 'No imported chapter comes after it to merge into.');
  });
  const list = choices.some((c) => c.include) ? null : 'Tick at least one chapter to import.';
  return { list, titles, merges };
}

/** The plan POST /api/imports takes: the choices as differences from the proposal. */
export function planOf(preview: ImportPreview, choices: readonly ChapterChoice[]): ImportPlan {
  const plan: ImportPlan = {
    skip: [],
    keep: [],
    merge: [],
    rename: [],
    chapter_count: preview.chapters.length,
  };
  preview.chapters.forEach((proposed, i) => {
    const choice = choices[i]!;
    if (proposed.included && !choice.include) plan.skip.push(i);
    if (!proposed.included && choice.include) plan.keep.push(i);
    if (!choice.include) return;
    if (choice.merge) plan.merge.push(i);
    const title = choice.title.trim();
    if (title !== proposed.title) plan.rename.push({ index: i, title });
  });
  return plan;
}

/** The chapters and words the book will have. */
export function totalsOf(preview: ImportPreview, choices: readonly ChapterChoice[]) {
  let chapters = 0;
  let words = 0;
  preview.chapters.forEach((proposed, i) => {
    const choice = choices[i]!;
    if (!choice.include) return;
    words += proposed.words;
    if (!choice.merge) chapters++;
  });
  return { chapters, words };
}
