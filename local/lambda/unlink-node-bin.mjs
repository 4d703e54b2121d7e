// npm links the `node` binary of the node-linux-<arch> package (the Node.js the local runtime runs Lambda
// functions on) as node_modules/.bin/node, which would put every `npm run`/`npx` tool on that Node instead of
// the machine's. Run after install (package.json postinstall): removes that one link, leaves any other.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

const link = join(process.cwd(), 'node_modules', '.bin', 'node');
try {
  if (lstatSync(link).isSymbolicLink() && /node-linux-[a-z0-9]+[\\/]bin[\\/]node$/.test(readlinkSync(link))) unlinkSync(link);
} catch (err) {
  if (err.code !== 'ENOENT') throw err;
}
