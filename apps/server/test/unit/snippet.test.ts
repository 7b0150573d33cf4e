import { describe, expect, it } from 'vitest';
import { countTopLevelBlocks } from '../../src/html/blocks.ts';
import { sanitizeContent } from '../../src/html/sanitize.ts';
import { blockRanges, blockTexts, searchSnippet } from '../../src/html/snippet.ts';
import { fold, stemsFinder } from '../../src/html/word-folding.ts';
import { postgresStem, sqliteStem } from '../../src/modules/search/stemmers.ts';
import { editorDocuments, generatedMarkup, NAUGHTY, XSS_VECTORS } from './html-samples.ts';

/** Issue 21: a search hit's snippet is text, escaped, whose only markup is <mark>. */
const markupIn = (snippet: string) => [...snippet.matchAll(/<\/?([a-z]+)/gi)].map((m) => m[1]);

/** Each engine's stemmer: a snippet behaves alike with either. */
const STEMMERS = [
  ['PostgreSQL', postgresStem],
  ['SQLite', sqliteStem],
] as const;

describe.each(STEMMERS)('search snippets (%s stemmer)', (_, stem) => {
  it('escape what the chapter text says, so only <mark> is markup', () => {
    // Sanitized HTML keeps these as text: the snippet must not turn them back into tags.
    const html = sanitizeContent(
      '<p>The &lt;script&gt;alert(1)&lt;/script&gt; dragon &lt;img src=x onerror=alert(2)&gt; &amp;amp; "quotes"</p>',
    );
    const found = searchSnippet(html, ['dragon'], stem);
    expect(found).not.toBeNull();
    expect(markupIn(found!.snippet)).toEqual(['mark', 'mark']);
    expect(found!.snippet).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(found!.snippet).toContain('<mark>dragon</mark>');
    expect(found!.snippet).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(found!.snippet).toContain('&amp;amp;');
    expect(found!.snippet).not.toMatch(/<(script|img)/i);
  });

  it('marks the query words, and counts blocks as paragraph indexes do', () => {
    const html =
      '<p>One.</p><blockquote><p>Two.</p><p>Three</p></blockquote><p>The Dragons flew, dragon-like.</p>';
    expect(blockTexts(html)).toHaveLength(countTopLevelBlocks(html));
    expect(searchSnippet(html, ['dragon'], stem)).toEqual({
      paragraph: 2,
      snippet: 'The <mark>Dragons</mark> flew, <mark>dragon</mark>-like.',
    });
    expect(searchSnippet(html, ['three'], stem)?.paragraph).toBe(1);
    expect(searchSnippet(html, ['absent'], stem)).toBeNull();
    // One word whatever its ending, as the engines' stemmers have it.
    expect(searchSnippet('<p>Their houses.</p>', ['housing'], stem)?.snippet).toBe(
      'Their <mark>houses</mark>.',
    );
  });

  it("marks the forms the engine's stemmer joins, whose stem the word does not begin with", () => {
    // "preceded" and "precedent" are "preced"; "happiness" is "happi", which "happy" is too.
    const html = '<p>It preceded us.</p><p>Her happiness grew.</p><p>Quite probable.</p>';
    expect(searchSnippet(html, ['precedent'], stem)).toEqual({
      paragraph: 0,
      snippet: 'It <mark>preceded</mark> us.',
    });
    expect(searchSnippet(html, ['happy'], stem)?.snippet).toBe('Her <mark>happiness</mark> grew.');
    expect(searchSnippet(html, ['probability'], stem)?.snippet).toBe(
      'Quite <mark>probable</mark>.',
    );
    expect(searchSnippet('<p>We were hoping.</p>', ['hope'], stem)?.snippet).toBe(
      'We were <mark>hoping</mark>.',
    );
  });

  it('ignores case and accents, in prose with and without characters beyond ASCII', () => {
    // Curly quotes and dashes alone need no fold; an accent or an emoji anywhere sends the
    // chapter down the folding path; both find the same words.
    const quotes = '<p>“Plain” — text…</p><p>The CAFE opened.</p>';
    expect(searchSnippet(quotes, ['café'], stem)).toEqual({
      paragraph: 1,
      snippet: 'The <mark>CAFE</mark> opened.',
    });
    for (const odd of ['Déjà vu.', 'A 😀 smile.', 'Ÿ'])
      expect(searchSnippet(`<p>${odd}</p>${quotes}`, ['cafe'], stem)).toEqual({
        paragraph: 2,
        snippet: 'The <mark>CAFE</mark> opened.',
      });
    expect(searchSnippet('<p>Le Café.</p>', ['cafe'], stem)?.snippet).toBe('Le <mark>Café</mark>.');
  });

  it('finds the first match whether it comes before or after the first accent', () => {
    // The plain scan stops at the first character folding may change and starts again folding.
    // "naive" and "naïve" part at the third letter, after the stem's first match would start.
    const cases: Array<[string, string, number, string]> = [
      ['<p>So naive.</p><p>Déjà vu.</p>', 'naïve', 0, 'So <mark>naive</mark>.'],
      ['<p>A NAÏVE man.</p><p>So naive.</p>', 'naive', 0, 'A <mark>NAÏVE</mark> man.'],
      ['<p>So naive.</p><p>ﬁne ½</p>', 'naive', 0, 'So <mark>naive</mark>.'],
      ['<p>ﬁne ½ naïve</p><p>So NAIVE.</p>', 'naive', 0, 'ﬁne ½ <mark>naïve</mark>'],
      ['<p>ﬁne ½</p><p>So NAIVE.</p>', 'naive', 1, 'So <mark>NAIVE</mark>.'],
      ['<p>In 1984, naïve</p>', '1984', 0, 'In <mark>1984</mark>, naïve'],
      ['<p><a href="/é">x</a> naive</p><p>naïve</p>', 'naive', 0, 'x <mark>naive</mark>'],
      ['<p><a href="/é">x</a> naïve</p><p>naive</p>', 'naive', 0, 'x <mark>naïve</mark>'],
    ];
    for (const [html, term, paragraph, snippet] of cases)
      expect(searchSnippet(html, [term], stem), html).toEqual({ paragraph, snippet });
  });

  it('finds a match however far into a long chapter, at the right block', () => {
    const blocks = Array.from({ length: 500 }, (_, i) => `<p>Block <em>number</em> ${i}.</p>`);
    blocks[431] = '<p>Here the <strong>lantern</strong> glows.</p>';
    blocks[470] = '<p>A second lantern.</p>';
    expect(searchSnippet(blocks.join(''), ['lanterns'], stem)).toEqual({
      paragraph: 431,
      snippet: 'Here the <mark>lantern</mark> glows.',
    });
  });

  it('reads Greek words whatever form their sigma takes in the block', () => {
    expect(searchSnippet('<p>ΟΔΟΣ<br />ΚΑΙ</p>', ['οδος'], stem)?.paragraph).toBe(0);
    expect(searchSnippet('<p>x</p><p>ΟΔΟΣ’ΚΑΙ</p>', ['οδος'], stem)?.paragraph).toBe(1);
    expect(searchSnippet('<ul><li>ΟΔΟΣ</li><li>ΚΑΙ</li></ul>', ['ΟΔΟΣ'], stem)?.paragraph).toBe(0);
  });

  it('takes time in proportion to the chapter, however its text lies between blocks', () => {
    // Text outside any block, or many places that look like a word and are not one, once cost
    // a scan back over the whole run of text for each of them: seconds for a long chapter.
    // A bound no machine misses by the work now done (well under 50 ms), and that code missed
    // many times over.
    const run = 'lantern '.repeat(80_000);
    const started = performance.now();
    expect(searchSnippet(`${run}<p>b</p>`, ['lantern'], stem)).toBeNull();
    expect(searchSnippet(`<p>x</p>${run}<p>y</p>`, ['lantern', 'zzz'], stem)).toBeNull();
    expect(
      searchSnippet(`<p>${'lanternfish '.repeat(80_000)}</p><p>the lantern</p>`, ['lantern'], stem)
        ?.paragraph,
    ).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('gives up on text made to be slow to stem, at once', () => {
    // A word of 200,000 letters took the Snowball port minutes; thousands of distinct words that
    // begin as a query word does take it about 10 µs each.
    let started = performance.now();
    expect(
      searchSnippet(`<p>lant${'ay'.repeat(100_000)}</p><p>A lantern.</p>`, ['lantern'], stem),
    ).toEqual({ paragraph: 1, snippet: 'A <mark>lantern</mark>.' });
    expect(performance.now() - started).toBeLessThan(1_000);
    const letters = (n: number) =>
      n.toString(26).replace(/./g, (d) => 'abcdefghijklmnopqrstuvwxyz'[parseInt(d, 26)]!);
    const distinct = Array.from({ length: 20_000 }, (_, i) => `lantern${letters(i)}qx`).join(' ');
    started = performance.now();
    expect(searchSnippet(`<p>${distinct}</p><p>A lantern.</p>`, ['lantern'], stem)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('finds a word whose stem its beginning is not', () => {
    // Porter2 stems "dying" to "die", which "dying" does not begin with.
    expect(searchSnippet('<p>They were dying.</p>', ['dying'], stem)?.snippet).toBe(
      'They were <mark>dying</mark>.',
    );
  });

  it('keeps a short passage around the first match', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[100] = 'needle';
    const found = searchSnippet(`<p>${words.join(' ')}</p>`, ['needle'], stem)!;
    expect(found.snippet.startsWith('… ')).toBe(true);
    expect(found.snippet.endsWith(' …')).toBe(true);
    expect(found.snippet.split(' ').length).toBeLessThan(45);
    expect(found.snippet).toContain('<mark>needle</mark>');
  });
});

describe("each engine's own matches", () => {
  it('leaves out stop words on PostgreSQL, which does not index them, and not on SQLite', () => {
    const html = '<p>The end.</p><p>A lantern.</p>';
    expect(searchSnippet(html, ['the', 'lantern'], postgresStem)?.paragraph).toBe(1);
    expect(searchSnippet(html, ['the', 'lantern'], sqliteStem)?.paragraph).toBe(0);
    expect(searchSnippet(html, ['the'], postgresStem)).toBeNull();
  });

  it('joins "die", "died" and "dying" on PostgreSQL only, as Porter2 does and Porter does not', () => {
    const html = '<p>Dying.</p><p>Died.</p>';
    expect(searchSnippet(html, ['die'], postgresStem)?.paragraph).toBe(0);
    expect(searchSnippet(html, ['died'], postgresStem)?.paragraph).toBe(0);
    expect(searchSnippet(html, ['died'], sqliteStem)?.paragraph).toBe(1);
  });
});

describe.each(STEMMERS)('the fast block scan (%s stemmer)', (_, stem) => {
  const editor = editorDocuments(150).map(sanitizeContent);
  const samples = [
    ...editor,
    ...generatedMarkup(300),
    ...XSS_VECTORS,
    ...NAUGHTY.slice(0, 300).map((text) => `<p>${text}</p><p>after</p>`),
  ].map(sanitizeContent);
  const WORDS = /[\p{L}\p{N}\p{M}]+/gu;

  it('finds the blocks the parse counts, or leaves the HTML to the parse', () => {
    let scanned = 0;
    for (const html of samples) {
      const ranges = blockRanges(html);
      if (ranges === null) continue;
      scanned++;
      expect(ranges.length, html).toBe(countTopLevelBlocks(html));
    }
    // What the editor writes takes the fast way.
    expect(editor.filter((html) => blockRanges(html) !== null).length).toBeGreaterThan(
      editor.length * 0.8,
    );
    expect(scanned).toBeGreaterThan(samples.length / 2);
  });

  it('puts a snippet at the block a full parse finds first', () => {
    for (const [i, html] of samples.entries()) {
      const texts = blockTexts(html);
      const words = texts.flatMap((t) => [...t.matchAll(WORDS)].map((m) => m[0]));
      if (words.length === 0) continue;
      const word = words[(i * 7919) % words.length]!;
      const key = (w: string) => stem(w.toLowerCase());
      if (key(word).length === 0) continue;
      const expected = texts.findIndex((t) =>
        [...t.matchAll(WORDS)].some((m) => key(m[0]) === key(word)),
      );
      expect(searchSnippet(html, [word], stem)?.paragraph, `${word} in ${html}`).toBe(expected);
    }
  });
});

describe('the folding pattern', () => {
  it('finds each character where folding keeps it one character, and says where it does not', () => {
    // Every BMP character: the pattern must find any text a fold turns into the stem, or the
    // text must be sent to the slower path that folds it first.
    let missed = 0;
    for (let code = 0x80; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCharCode(code);
      // Only what words are made of matters: a stem is letters and numbers.
      if (!/[\p{L}\p{N}\p{M}]/u.test(character)) continue;
      const folded = fold(character);
      const pattern = stemsFinder(`#${character}#`, [folded]);
      if (pattern === null) continue;
      expect(folded.length, `U+${code.toString(16)} folds to one character`).toBe(1);
      if (pattern.exec(`#${character}#`)?.index !== 1) missed++;
    }
    expect(missed).toBe(0);
    expect(stemsFinder('ﬁnd', ['find'])).toBeNull();
    expect(stemsFinder('Café naïve “quoted” — ok…', ['naive'])?.exec('A NAÏVE man')?.index).toBe(2);
    expect(
      stemsFinder('<p><strong>T</strong>he</p>', ['the'])?.exec('<p><strong>T</strong>he</p>')
        ?.index,
    ).toBe(11);
    // Plain ASCII needs no accents in its pattern.
    expect(stemsFinder('plain text', ['cafe'])?.source).toBe(
      'c(?:<[^>]*>)*a(?:<[^>]*>)*f(?:<[^>]*>)*e',
    );
  });
});
