// Differential test peer: js-bson's ObjectId (the npm `bson` package, pinned in package-lock.json).
//
// Reads a case file written by `oid-verify cases` (one case per line: class, expected bytes,
// input as hex of its UTF-8) and prints, per case, tab-separated `api=verdict` fields:
//
//   new ObjectId=ok,<toHexString()>,<getTimestamp() in Unix seconds>   or   new ObjectId=err,<error name>
//   createFromHexString=ok,...                                         or   createFromHexString=err,...
//   isValid=true|false
//
// js-bson has no ordering operator, so there is no `order` line. The comparison itself is in
// verify/src/compare.rs.
import { readFileSync } from 'node:fs';
import { ObjectId } from 'bson';

// The installed version, read from the package itself (its exports do not include package.json).
const version = JSON.parse(
  readFileSync(new URL('./node_modules/bson/package.json', import.meta.url), 'utf8'),
).version;

function verdict(make) {
  let id;
  try {
    id = make();
  } catch (e) {
    return `err,${e?.name ?? 'Error'}`;
  }
  const ms = id.getTimestamp().getTime();
  if (ms % 1000 !== 0) return `err,FractionalTimestamp`;
  return `ok,${id.toHexString()},${ms / 1000}`;
}

const lines = readFileSync(process.argv[2], 'ascii').split('\n').filter((l) => l.length > 0);
const out = [];
for (const line of lines) {
  const [, , inputHex] = line.split('\t');
  const s = Buffer.from(inputHex, 'hex').toString('utf8');
  out.push(
    [
      `new ObjectId=${verdict(() => new ObjectId(s))}`,
      `createFromHexString=${verdict(() => ObjectId.createFromHexString(s))}`,
      `isValid=${ObjectId.isValid(s) ? 'true' : 'false'}`,
    ].join('\t'),
  );
}
process.stdout.write(out.join('\n') + '\n');
process.stderr.write(`peer.mjs: bson ${version}, ${lines.length} cases\n`);
