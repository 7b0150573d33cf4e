import SQLite from 'better-sqlite3';
const db = new SQLite('/tmp/s-copy.db');
db.pragma('journal_mode=WAL'); db.pragma('synchronous=FULL');
const row = db.prepare('select content, content_text from chapters where id = 5000').get();
const up = db.prepare('update chapters set content = ?, content_text = ?, updated_at = ?, version = version + 1 where id = ?');
function t(label, fn, n = 30) { const t0 = performance.now(); for (let i = 0; i < n; i++) fn(i); console.log(label, ((performance.now() - t0) / n).toFixed(2), 'ms'); }
t('update with fts trigger, FULL', (i) => up.run(row.content + i, row.content_text + ' x' + i, new Date().toISOString(), 5000));
db.pragma('synchronous=NORMAL');
t('update with fts trigger, NORMAL', (i) => up.run(row.content + i, row.content_text + ' y' + i, new Date().toISOString(), 5000));
db.exec('drop trigger chapters_au');
t('update no trigger, NORMAL', (i) => up.run(row.content + i, row.content_text + ' z' + i, new Date().toISOString(), 5000));
db.pragma('synchronous=FULL');
t('update no trigger, FULL', (i) => up.run(row.content + i, row.content_text + ' w' + i, new Date().toISOString(), 5000));
t('select content', () => db.prepare('select * from chapters where id = 5000').get());
