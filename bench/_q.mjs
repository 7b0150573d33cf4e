import SQLite from 'better-sqlite3';
const db = new SQLite('bench/data/dataset-S.db', { readonly: true });
function t(label, sql, ...args) {
  const st = db.prepare(sql);
  let r; const t0 = performance.now(); for (let i = 0; i < 5; i++) r = st.all(...args); const ms = (performance.now() - t0) / 5;
  console.log(label, ms.toFixed(2), 'ms', r.length);
  for (const p of db.prepare('explain query plan ' + sql).all(...args)) console.log('   ', p.detail);
}
t('chapter', `select c.id, c.content, b.author_id from chapters c join books b on b.id=c.book_id where c.id = ?`, 5000);
t('count', `select count(*) from chapters where book_id = ? and is_published = 1`, 500);
t('list chapters', `select id, title, chapter_order, is_published, word_count, version, created_at, updated_at from chapters where book_id = ? and is_published = 1 order by chapter_order, id`, 500);
t('popular', `select b.id, count(distinct rh.user_id) r from read_history rh join books b on b.id = rh.book_id where b.is_published = 1 group by b.id order by r desc, b.id desc limit 10`);
t('fts common', `select rowid from chapter_fts where chapter_fts match '"looked"'`);
t('fts common rank', `select rowid, rank from chapter_fts where chapter_fts match '"looked"' order by rank limit 50`);
t('fts common rowid limit', `select rowid from chapter_fts where chapter_fts match '"looked"' order by rowid desc limit 200`);
t('fts rare', `select rowid, rank from chapter_fts where chapter_fts match '"nursery"'`);
