// A transparent stdio tap for clients that run as their own program (the MCP Inspector CLI): the
// client starts `node wire-tap.mjs LOG SERVER_COMMAND [ARGS...]` as its server; the tap starts
// the real server, passes stdin and stdout through unchanged, byte for byte, and appends every line
// to LOG as {"dir": "client->server" | "server->client", "message": <the line as JSON>} (or
// {"dir", "line"} when a line is not JSON). stderr is inherited. The tap exits with the server's
// status, and closes the server's stdin when its own closes, so shutdown behaves as without it.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  process.stderr.write('usage: node wire-tap.mjs LOG SERVER_COMMAND [ARGS...]\n');
  process.exit(2);
}

function record(dir, line) {
  let entry;
  try {
    entry = { dir, message: JSON.parse(line) };
  } catch {
    entry = { dir, line };
  }
  appendFileSync(log, JSON.stringify(entry) + '\n');
}

/** Calls `onLine` for each complete line of a byte stream (a line may arrive in pieces). */
function lines(stream, onLine) {
  let pending = Buffer.alloc(0);
  stream.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let newline;
    while ((newline = pending.indexOf(0x0a)) >= 0) {
      onLine(pending.subarray(0, newline).toString('utf8'));
      pending = pending.subarray(newline + 1);
    }
  });
}

const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
lines(process.stdin, (line) => record('client->server', line));
lines(server.stdout, (line) => record('server->client', line));
process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
server.on('error', (error) => {
  process.stderr.write(`wire-tap: could not start ${command}: ${error.message}\n`);
  process.exit(127);
});
server.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 128 : 1);
});
// A client that ends the server with SIGTERM ends the tap: pass it on.
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.kill(signal));
}
