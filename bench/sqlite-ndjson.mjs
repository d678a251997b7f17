// The floor `pets list --all -o ndjson` over the sandbox is measured against: the same rows
// read straight from its SQLite file (each pet's stored JSON, in id order) and written to
// stdout as NDJSON, a window of rows per write. Usage: node bench/sqlite-ndjson.mjs DB
import { writeSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';

const db = new DatabaseSync(process.argv[2], { readOnly: true });
let text = '';
let rows = 0;
for (const { json } of db.prepare('SELECT json FROM pets ORDER BY id').iterate()) {
  text += `${json}\n`;
  if (++rows % 1000 === 0) {
    writeSync(1, text);
    text = '';
  }
}
if (text !== '') writeSync(1, text);
db.close();
