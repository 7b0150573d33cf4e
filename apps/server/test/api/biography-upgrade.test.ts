import { expect, it } from 'vitest';
import { as } from '../helpers/app.ts';
import { insertOldUser, upgradedApp } from '../helpers/old-library.ts';

// Biographies stored before they were plain text (migration 0024) went through the chapter
// sanitizer: the upgrade turns each back into the text it showed.
const STORED_AS_HTML: Array<[string, string]> = [
  ['<p>Writes about lighthouses &amp; tides.</p>', 'Writes about lighthouses & tides.'],
  [
    '<p>Mysteries with <em>small</em> stakes.</p><p>Line<br>break &lt;3</p>',
    'Mysteries with small stakes.\nLine\nbreak <3',
  ],
  [
    '<p>Typed &amp;lt; as text, &quot;quoted&quot; &#39;n&#x27; all</p>',
    `Typed &lt; as text, "quoted" 'n' all`,
  ],
  ['Plain already, no markup', 'Plain already, no markup'],
  // Entities no text may hold become the replacement character instead of stopping the upgrade.
  ['<p>odd &#0; &#x110000; &#xD800;</p>', 'odd \uFFFD \uFFFD \uFFFD'],
  ['', ''],
];

const ids: number[] = [];

const t = upgradedApp('0023_search_grams_once', async (old, at) => {
  for (const [index, [biography]] of STORED_AS_HTML.entries()) {
    const id = await insertOldUser(old, `writer${index}`, at);
    await old.updateTable('users').set({ biography }).where('id', '=', id).execute();
    ids.push(id);
  }
});

it('turns every stored biography back into the plain text it showed', async () => {
  for (const [index, [, text]] of STORED_AS_HTML.entries()) {
    const profile = await as(t().app).get(`/api/authors/${ids[index]}`);
    expect(profile.json().biography).toBe(text);
  }
});
