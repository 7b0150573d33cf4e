import { countWords } from '../../src/html/words.ts';
import { epub2, epub3, prose as chapterProse, type TestDoc, type TestEpub } from './ebooks.ts';
import { prose } from './prose.ts';

/**
 * One generated EPUB for each shape of table of contents published books have (issue 23): flat,
 * two and three levels, entries pointing into the middle of a file, parts without a file of
 * their own, and an EPUB 2 with only an NCX. Each says what the import must make of it.
 */
export interface TocShape {
  name: string;
  book: TestEpub;
  version: '2.0' | '3.0';
  /** The chapters imported when the author changes nothing, in order. */
  titles: string[];
  /** Text each of these chapters must open with (group headings, folded part pages), in order. */
  openings: Record<string, string[]>;
}

const MATTER_TYPES = ['frontmatter', 'backmatter'];

/** Words of the story's text (front and back matter aside), counted as word_count counts them. */
export function bodyWords(book: TestEpub): number {
  return book.docs
    .filter((d) => !MATTER_TYPES.includes(d.bodyType ?? ''))
    .reduce((sum, d) => sum + countWords(d.body.replace(/<[^>]+>/g, ' ')), 0);
}

export const shapeFile = (shape: TocShape) =>
  shape.version === '3.0' ? epub3(shape.book) : epub2(shape.book);

/** Chapter text of a few hundred words, the same for the same seed. */
function text(seed: number, words = 400): string {
  return prose(seed, 500).chapter(words).html;
}

const titlePage = (title: string): TestDoc => ({
  file: 'title.xhtml',
  toc: 'Title Page',
  bodyType: 'frontmatter',
  body: `<section epub:type="titlepage"><h1>${title}</h1><p>By A. Writer</p></section>`,
});
const colophon: TestDoc = {
  file: 'colophon.xhtml',
  toc: 'Colophon',
  bodyType: 'backmatter',
  body: '<p>This book was set in type by hand, and bound with care.</p>',
};
const chapter = (
  file: string,
  toc: string,
  seed: number,
  more: Partial<TestDoc> = {},
): TestDoc => ({
  file,
  toc,
  body: `<h2>${toc}</h2>${text(seed)}`,
  ...more,
});

export const TOC_SHAPES: TocShape[] = [
  {
    name: 'a flat table of contents, its part pages listed beside the chapters',
    version: '3.0',
    book: {
      title: 'Flat Tale',
      docs: [
        titlePage('Flat Tale'),
        {
          file: 'part-1.xhtml',
          toc: 'Part One',
          body: '<h2>Part One</h2><blockquote><p>All happy families are alike</p></blockquote>',
        },
        chapter('chapter-1.xhtml', 'Chapter 1', 1),
        chapter('chapter-2.xhtml', 'Chapter 2', 2),
        {
          file: 'part-2.xhtml',
          toc: 'Part Two',
          body: '<h2>Part Two</h2><p>In Which Things Change</p>',
        },
        chapter('chapter-3.xhtml', 'Chapter 3', 3),
        colophon,
      ],
    },
    titles: ['Chapter 1', 'Chapter 2', 'Chapter 3'],
    openings: {
      'Chapter 1': ['Part One', 'All happy families are alike'],
      'Chapter 3': ['Part Two', 'In Which Things Change'],
    },
  },
  {
    name: 'two levels: parts with a title page, numbered chapters under them',
    version: '3.0',
    book: {
      title: 'Two Level Tale',
      docs: [
        titlePage('Two Level Tale'),
        {
          file: 'part-1.xhtml',
          toc: 'Part I: The Beginning',
          body: '<hgroup><h2>Part I</h2><p>The Beginning</p></hgroup>',
        },
        chapter('c-1-1.xhtml', 'I', 11, { level: 2 }),
        chapter('c-1-2.xhtml', 'II', 12, { level: 2 }),
        { file: 'part-2.xhtml', toc: 'Part II', body: '<h2>Part II</h2>' },
        chapter('c-2-1.xhtml', 'I', 21, { level: 2 }),
        chapter('c-2-2.xhtml', 'II', 22, { level: 2 }),
      ],
    },
    titles: ['Part I: I', 'Part I: II', 'Part II: I', 'Part II: II'],
    openings: { 'Part I: I': ['Part I', 'The Beginning'], 'Part II: I': ['Part II'] },
  },
  {
    name: 'three levels: periods holding narratives holding numbered sections, and an epilogue of statements',
    version: '3.0',
    book: {
      title: 'The Moonstone Shape',
      docs: [
        {
          file: 'period-1.xhtml',
          toc: 'First Period: The Loss of the Diamond (1848)',
          body: '<h2>First Period</h2><p>The Loss of the Diamond (1848)</p>',
        },
        chapter('b-1.xhtml', 'I', 31, {
          level: 3,
          groups: [
            [
              'The Events Related by Gabriel Betteredge, House-Steward in the Service of Julia, Lady Verinder',
              2,
            ],
          ],
        }),
        chapter('b-2.xhtml', 'II', 32, { level: 3 }),
        chapter('b-3.xhtml', 'III', 33, { level: 3 }),
        {
          file: 'period-2.xhtml',
          toc: 'Second Period: The Discovery of the Truth (1848–1849)',
          body: '<h2>Second Period</h2><p>The Discovery of the Truth (1848–1849)</p><blockquote><p>What is truth, said jesting Pilate</p></blockquote>',
        },
        {
          file: 'narrative-1.xhtml',
          toc: 'First Narrative: Contributed by Miss Clack',
          level: 2,
          body: '<h3>First Narrative</h3><p>Contributed by Miss Clack; the Niece of the Late Sir John Verinder</p>',
        },
        chapter('c-1.xhtml', 'I', 41, { level: 3 }),
        chapter('c-2.xhtml', 'II', 42, { level: 3 }),
        chapter('d-1.xhtml', 'I', 51, {
          level: 3,
          groups: [['Second Narrative: Contributed by Mathew Bruff', 2]],
        }),
        chapter('d-2.xhtml', 'II', 52, { level: 3 }),
        chapter('e-1.xhtml', 'I: The Statement of Sergeant Cuff’s Man (1849)', 61, {
          level: 2,
          groups: [['Epilogue: The Finding of the Diamond', 1]],
        }),
        chapter('e-2.xhtml', 'II: The Statement of the Captain (1849)', 62, { level: 2 }),
      ],
    },
    titles: [
      'First Period: I',
      'First Period: II',
      'First Period: III',
      'First Narrative: I',
      'First Narrative: II',
      'Second Narrative: I',
      'Second Narrative: II',
      'I: The Statement of Sergeant Cuff’s Man (1849)',
      'II: The Statement of the Captain (1849)',
    ],
    openings: {
      'First Period: I': [
        'First Period',
        'The Loss of the Diamond (1848)',
        'The Events Related by Gabriel Betteredge',
      ],
      'First Narrative: I': [
        'Second Period',
        'The Discovery of the Truth',
        'What is truth, said jesting Pilate',
        'First Narrative',
        'Contributed by Miss Clack',
      ],
      'Second Narrative: I': ['Second Narrative: Contributed by Mathew Bruff'],
      'I: The Statement of Sergeant Cuff’s Man (1849)': ['Epilogue: The Finding of the Diamond'],
    },
  },
  {
    name: 'entries that point into the middle of a file',
    version: '3.0',
    book: {
      title: 'Fragment Tale',
      docs: [
        chapter('one.xhtml', 'Chapter One', 71),
        {
          file: 'two-three.xhtml',
          toc: 'Chapter Two',
          anchors: [['Chapter Three', 'c3']],
          body: `<section id="c2"><h2>Chapter Two</h2>${text(72)}</section><section id="c3"><h2>Chapter Three</h2>${text(73)}</section>`,
        },
        {
          file: 'epilogue.xhtml',
          toc: 'Epilogue',
          anchors: [
            ['I', 'e1'],
            ['II', 'e2'],
          ],
          body: `<section id="epilogue"><h2>Epilogue</h2><section id="e1"><h3>I</h3>${text(74)}</section><section id="e2"><h3>II</h3>${text(75)}</section></section>`,
        },
      ],
    },
    titles: ['Chapter One', 'Chapter Two', 'Chapter Three', 'Epilogue: I', 'Epilogue: II'],
    openings: { 'Epilogue: I': ['Epilogue'] },
  },
  {
    name: 'parts without a file of their own',
    version: '3.0',
    book: {
      title: 'Fileless Parts',
      docs: [
        chapter('c1.xhtml', '1', 81, { level: 2, groups: [['Part One', 1]] }),
        chapter('c2.xhtml', '2', 82, { level: 2 }),
        chapter('c3.xhtml', '3', 83, { level: 2, groups: [['Part Two: The Return', 1]] }),
        chapter('e1.xhtml', 'I: The Statement of the Captain', 84, {
          level: 2,
          groups: [['Epilogue', 1]],
        }),
        chapter('e2.xhtml', 'II: The Statement of the Doctor', 85, { level: 2 }),
        colophon,
      ],
    },
    titles: [
      'Part One: 1',
      'Part One: 2',
      'Part Two: 3',
      'I: The Statement of the Captain',
      'II: The Statement of the Doctor',
    ],
    openings: {
      'Part One: 1': ['Part One'],
      'Part Two: 3': ['Part Two: The Return'],
      'I: The Statement of the Captain': ['Epilogue'],
    },
  },
  {
    name: 'an EPUB 2 with only an NCX, one part pointing at its first chapter',
    version: '2.0',
    book: {
      title: 'Old Shape',
      docs: [
        titlePage('Old Shape'),
        chapter('c1.xhtml', 'Chapter 1', 91, { level: 2, groups: [['Book One', 1]] }),
        chapter('c2.xhtml', 'Chapter 2', 92, { level: 2 }),
        {
          file: 'book-2.xhtml',
          toc: 'Book Two',
          body: '<h1>Book Two</h1><blockquote><p>Epigraph of a few words</p></blockquote>',
        },
        chapter('c3.xhtml', 'Chapter 3', 93, { level: 2 }),
        chapter('c4.xhtml', 'Chapter 4', 94, { level: 2 }),
        colophon,
      ],
    },
    titles: ['Chapter 1', 'Chapter 2', 'Chapter 3', 'Chapter 4'],
    openings: {
      'Chapter 1': ['Book One'],
      'Chapter 3': ['Book Two', 'Epigraph of a few words'],
    },
  },
];

/** For the choices (preview, plan, CLI flags): a book with a title page, a story of four chapters (one very short) and a colophon. */
export function choicesBook(title: string) {
  const docs: TestDoc[] = [
    {
      file: 'title.xhtml',
      toc: 'Title Page',
      bodyType: 'frontmatter',
      body: `<h1>${title}</h1><p>By Someone</p>`,
    },
    { file: 'one.xhtml', toc: 'One', body: `<h2>One</h2>${chapterProse(6, 'one')}` },
    { file: 'short.xhtml', toc: 'Interlude', body: '<h2>Interlude</h2><p>A breath.</p>' },
    { file: 'two.xhtml', toc: 'Two', body: `<h2>Two</h2>${chapterProse(6, 'two')}` },
    { file: 'three.xhtml', toc: 'Three', body: `<h2>Three</h2>${chapterProse(6, 'three')}` },
    {
      file: 'colophon.xhtml',
      toc: 'Colophon',
      bodyType: 'backmatter',
      body: '<p>Set in type.</p>',
    },
  ];
  return epub3({ title, author: 'Someone', docs });
}
