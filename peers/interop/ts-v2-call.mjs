// One tool call the way a TypeScript host makes it: the official SDK v2 client
// (@modelcontextprotocol/client, versionNegotiation auto, as in ts-v2-client.mjs) spawns the SDK v2
// peer server (ts-v2-server.mjs) over stdio, calls read_note {"path":"notes.txt"} once, prints the
// result as JSON, and closes. The benchmark's reference for `notes-mcp -root W -tool read_note`
// (notes-bench, one-shot client end to end); nothing else runs here.
//
// Usage: node ts-v2-call.mjs WORKSPACE
// Exit code: 0 for a result with isError false, 1 for isError true, 4 when the call failed.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';

const workspace = process.argv[2];
if (!workspace) {
  process.stderr.write('usage: node ts-v2-call.mjs WORKSPACE\n');
  process.exit(2);
}
const server = fileURLToPath(new URL('./ts-v2-server.mjs', import.meta.url));

try {
  const client = new Client(
    { name: 'ts-v2-call', version: '0.1.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [server, workspace],
    env: getDefaultEnvironment(),
    stderr: 'inherit',
  });
  await client.connect(transport);
  const result = await client.callTool({ name: 'read_note', arguments: { path: 'notes.txt' } });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  await client.close();
  process.exitCode = result.isError ? 1 : 0;
} catch (error) {
  process.stderr.write(`ts-v2-call: ${error?.stack ?? error}\n`);
  process.exitCode = 4;
}
