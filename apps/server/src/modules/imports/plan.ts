import type { ImportPlan } from '@inkwell/contract';
import { clampTitle, headingLine, splitOversized } from './parsers/chapters.ts';
import { ImportFileError, type ParsedBook, type ParsedChapter } from './parsers/index.ts';

/** The title a parsed file's book gets, before it is made unique among the author's books. */
export function bookTitleOf(parsed: Pick<ParsedBook, 'title'>, filename: string): string {
  return clampTitle(parsed.title?.trim() || filename.replace(/\.[^.]+$/, '') || 'Imported book');
}

/** What decides which proposed chapters become the book. */
export interface Choices {
  /** Import front and back matter too (unless the plan skips them). */
  keepFrontMatter: boolean;
  /** The author's choices after a preview; null imports the proposal as it stands. */
  plan: ImportPlan | null;
}

/** What became of one proposed chapter. */
export type Outcome =
  | { action: 'import'; title: string }
  | { action: 'skip' }
  | { action: 'merge'; title: string; into: number };

export interface Chosen {
  chapters: ParsedChapter[];
  /** One per proposed chapter, in order: for summaries (the CLI's) that must match the import. */
  outcomes: Outcome[];
  warnings: string[];
}

/** Whether a proposed chapter is imported when the author changes nothing: the story always, matter on request. */
export const includedByDefault = (chapter: ParsedChapter, keepFrontMatter: boolean) =>
  chapter.kind === 'body' || keepFrontMatter;

const fail = (why: string) => {
  throw new ImportFileError(why);
};

/** Checks that every index the plan names is a proposed chapter, once, without contradiction. */
function checkPlan(plan: ImportPlan, count: number): void {
  if (plan.chapter_count !== undefined && plan.chapter_count !== count) {
    fail(
      `The file now reads as ${count} chapters, not the ${plan.chapter_count} that were previewed; preview it again`,
    );
  }
  const named = [...plan.skip, ...plan.keep, ...plan.merge, ...plan.rename.map((r) => r.index)];
  const beyond = named.find((i) => i >= count);
  if (beyond !== undefined) {
    fail(
      `The choices name chapter ${beyond + 1}, but the file has ${count} chapter${count === 1 ? '' : 's'}`,
    );
  }
  const keep = new Set(plan.keep);
  const both = plan.skip.find((i) => keep.has(i));
  if (both !== undefined) fail(`Chapter ${both + 1} is both left out and kept`);
}

/**
 * Applies the author's choices to the proposed chapters: which are imported (the proposal's
 * defaults, then `keep` and `skip`), which are merged into the next imported chapter (their
 * title becomes a heading line there, so nothing is lost), and their titles. The import and the
 * CLI's summary both come through here, so what the summary shows is what is created.
 */
export function chooseChapters(chapters: readonly ParsedChapter[], choices: Choices): Chosen {
  const plan = choices.plan;
  if (plan) checkPlan(plan, chapters.length);
  const skip = new Set(plan?.skip);
  const keep = new Set(plan?.keep);
  const merge = new Set(plan?.merge);
  const titles = new Map(plan?.rename.map((r) => [r.index, r.title]));
  const included = chapters.map(
    (c, i) => !skip.has(i) && (keep.has(i) || includedByDefault(c, choices.keepFrontMatter)),
  );

  const outcomes: Outcome[] = [];
  const result: ParsedChapter[] = [];
  /** Merged chapters waiting for the next imported one: their proposal indexes. */
  let waiting: number[] = [];
  chapters.forEach((chapter, i) => {
    if (!included[i]) {
      if (merge.has(i)) fail(`Chapter ${i + 1} is left out, so it cannot be merged`);
      outcomes.push({ action: 'skip' });
      return;
    }
    const title = titles.get(i) ?? chapter.title;
    if (merge.has(i)) {
      waiting.push(i);
      outcomes.push({ action: 'merge', title, into: -1 });
      return;
    }
    for (const w of waiting) outcomes[w] = { action: 'merge', title: titleOf(w), into: i };
    const merged = waiting.map((w) => headingLine(titleOf(w)) + chapters[w]!.html).join('');
    waiting = [];
    outcomes.push({ action: 'import', title });
    if (!merged) result.push({ ...chapter, title });
    else
      result.push(
        ...splitOversized(title, merged + chapter.html).map((part) => ({
          ...part,
          kind: chapter.kind,
        })),
      );
  });
  function titleOf(index: number) {
    return titles.get(index) ?? chapters[index]!.title;
  }
  if (waiting.length > 0) {
    fail(
      `Chapter ${waiting[0]! + 1} has no imported chapter after it to be merged into; merge it into none, or keep one after it`,
    );
  }
  if (result.length === 0) fail('Every chapter was left out: there is nothing to import');

  const matterLeftOut = chapters.filter(
    (c, i) => c.kind !== 'body' && !included[i] && !skip.has(i),
  ).length;
  return { chapters: result, outcomes, warnings: matterWarnings(matterLeftOut) };
}

/** What to tell the author about matter left out without being asked. */
export function matterWarnings(leftOut: number): string[] {
  return leftOut > 0
    ? [
        `Skipped ${leftOut} front or back matter section${leftOut === 1 ? '' : 's'} (cover, title page, copyright, contents...)`,
      ]
    : [];
}
