import fs from 'node:fs';
import { parseEpub } from './apps/server/src/modules/imports/parsers/epub.ts';
const dir = '/work/shared/corpus';
for (const b of JSON.parse(fs.readFileSync(`${dir}/books.json`, 'utf8'))) {
  const t0 = Date.now();
  const book = await parseEpub(fs.readFileSync(`${dir}/${b.epub}`), { filename: b.epub, keepFrontMatter: process.argv[2] === 'keep' }, () => {});
  const ts = book.chapters.map((c) => c.title);
  console.log(b.epub, Date.now() - t0, 'ms', book.title, '|', book.author, '| chapters', ts.length, '| cover', book.cover?.mediaType, book.cover?.bytes.length);
  console.log('   ', ts.slice(0, 4).join(' / '), ' ... ', ts.slice(-3).join(' / '));
  console.log('   ', book.warnings.join('; '), '| desc:', book.description?.slice(0, 60));
  console.log('   first chapter start:', book.chapters[0]!.html.slice(0, 160));
}
