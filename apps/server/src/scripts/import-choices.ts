import { ImportPlan, type ImportFormat } from '@inkwell/contract';
import type { ParsedBook } from '../modules/imports/parsers/index.ts';
import { chooseChapters, type Choices } from '../modules/imports/plan.ts';

/**
 * The CLI's chapter choices (`--skip 1,2 --keep 1 --merge 5 --rename 3="New title"`), numbered
 * from 1 as the summary shows them, made into the API's ImportPlan (numbered from 0), and the
 * summary that --dry-run prints. Both go through the import's own rules (chooseChapters).
 */
export interface ChoiceFlags {
  skip?: string[];
  keep?: string[];
  merge?: string[];
  rename?: string[];
}

/** Chapter numbers as typed: "1,2", "3" or several flags; answers 0-based indexes. */
function numbers(flag: string, values: string[] = []): number[] {
  return values.flatMap((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        if (!/^[1-9]\d{0,5}$/.test(part))
          throw new Error(
            `--${flag} takes chapter numbers from the summary (1, 2, ...), not "${part}"`,
          );
        return Number(part) - 1;
      }),
  );
}

/** The plan the flags describe, or null when they choose nothing; throws with the usage problem. */
export function planFromFlags(flags: ChoiceFlags): ImportPlan | null {
  const rename = (flags.rename ?? []).map((value) => {
    const match = /^(\d+)=(.*)$/s.exec(value);
    if (!match) throw new Error(`--rename takes NUMBER="New title", not "${value}"`);
    return { index: numbers('rename', [match[1]!])[0]!, title: match[2]! };
  });
  const raw = {
    skip: numbers('skip', flags.skip),
    keep: numbers('keep', flags.keep),
    merge: numbers('merge', flags.merge),
    rename,
  };
  if (Object.values(raw).every((list) => list.length === 0)) return null;
  const plan = ImportPlan.safeParse(raw);
  if (!plan.success) {
    const issue = plan.error.issues[0];
    throw new Error(`--${String(issue?.path[0] ?? 'rename')}: ${issue?.message ?? 'invalid'}`);
  }
  return plan.data;
}

const count = (n: number, one: string) =>
  `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * What a file would become: every proposed chapter with its number, a mark ([x] imported,
 * [ ] left out, [+] merged into a later one), its title, word count and kind, then the totals.
 * Throws the import's own error when the choices do not fit the file.
 */
export function summaryLines(
  name: string,
  parsed: ParsedBook,
  format: ImportFormat,
  choices: Choices,
): string[] {
  const chosen = chooseChapters(parsed.chapters, choices);
  const by = parsed.author ? ` by ${parsed.author}` : '';
  const lines = [
    `${name}: "${parsed.title ?? name}"${by}, ${format}, ${count(parsed.chapters.length, 'chapter')} proposed`,
  ];
  const width = String(parsed.chapters.length).length;
  parsed.chapters.forEach((chapter, i) => {
    const outcome = chosen.outcomes[i]!;
    const mark = { import: 'x', skip: ' ', merge: '+' }[outcome.action];
    const title = outcome.action === 'skip' ? chapter.title : outcome.title;
    const notes = [count(chapter.words, 'word')];
    if (chapter.kind !== 'body') notes.push(`${chapter.kind} matter`);
    if (title !== chapter.title) notes.push(`renamed from "${chapter.title}"`);
    if (outcome.action === 'merge') notes.push(`merged into ${outcome.into + 1}`);
    lines.push(`  ${String(i + 1).padStart(width)}. [${mark}] ${title} (${notes.join(', ')})`);
  });
  const words = chosen.chapters.reduce((sum, c) => sum + c.words, 0);
  lines.push(
    `  Would import ${count(chosen.chapters.length, 'chapter')}, ${count(words, 'word')}.`,
    ...chosen.warnings.map((w) => `  ${w}`),
  );
  return lines;
}
