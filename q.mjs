import SQLite from 'better-sqlite3';
const db = new SQLite(process.argv[2], {readonly:true});
for (const r of db.prepare("select name, tbl_name, sql from sqlite_master where type='trigger' and tbl_name='chapters'").all()) console.log(r.sql, '\n');
