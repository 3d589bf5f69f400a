// The MCP Inspector v2 CLI (@modelcontextprotocol/inspector 2.x, `mcp-inspector --cli`),
// unmodified, as a person or a CI job runs it: one process per method, `--format json`, against a
// stdio server it starts itself. Each run goes through wire-tap.mjs so the report has the wire.
// Usage: node inspector-cli.mjs --protocol-era=legacy|modern|auto SERVER_COMMAND [ARGS...]
// Prints one JSON report on stdout (see report.mjs): the era and version seen on the wire, the
// tools, the three calls, and the wire of every run (`session` numbers the runs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eraOnTheWire, installedVersion, main } from './report.mjs';

const version = installedVersion('@modelcontextprotocol/inspector');
const here = fileURLToPath(new URL('.', import.meta.url));
const inspector = join(here, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients',
  'launcher', 'build', 'index.js');
const tap = join(here, 'wire-tap.mjs');

function usage() {
  process.stderr.write(
    'usage: node inspector-cli.mjs --protocol-era=legacy|modern|auto SERVER_COMMAND [ARGS...]\n',
  );
  process.exit(2);
}

await main(async () => {
  const [eraFlag, ...server] = process.argv.slice(2);
  const era = eraFlag?.startsWith('--protocol-era=') ? eraFlag.slice('--protocol-era='.length) : '';
  if (!['legacy', 'modern', 'auto'].includes(era) || server.length === 0) usage();
  const scratch = mkdtempSync(join(tmpdir(), 'inspector-cli-'));
  const wire = [];
  let session = 0;

  /** One `mcp-inspector --cli` run: its exit status and its JSON output (or its raw text). */
  function inspect(method, extra = []) {
    session++;
    const log = join(scratch, `wire-${session}.jsonl`);
    const run = spawnSync(
      process.execPath,
      [inspector, '--cli', '--protocol-era', era, '--format', 'json', '--method', method,
        ...extra, process.execPath, tap, log, ...server],
      { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The CLI's stderr holds our server's (inherited) diagnostics and, on failure, the CLI's own
    // JSON error envelope as its last line.
    process.stderr.write(run.stderr);
    let entries = [];
    try {
      entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    } catch {
      // the server was never started
    }
    for (const entry of entries) wire.push({ session, ...entry });
    const lastErrLine = run.stderr.trim().split('\n').pop();
    for (const text of [run.stdout, lastErrLine]) {
      try {
        return { exit: run.status, ...JSON.parse(text) };
      } catch {
        // not this one
      }
    }
    return { exit: run.status, stdout: run.stdout };
  }

  const call = (name, args) =>
    inspect('tools/call', ['--tool-name', name, '--tool-args-json', JSON.stringify(args)]);
  const listed = inspect('tools/list');
  const report = {
    sdk: { package: '@modelcontextprotocol/inspector', version },
    requestedEra: era,
    listExit: listed.exit,
    tools: (listed.result?.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    readNote: call('read_note', { path: 'notes.txt' }),
    refusedRead: call('read_note', { path: '../secret.txt' }),
    unknownTool: call('save_note', { path: 'draft.txt', content: 'x' }),
  };
  rmSync(scratch, { recursive: true, force: true });
  report.wire = wire;
  Object.assign(report, eraOnTheWire(wire));
  const init = wire.find((w) => w.dir === 'server->client' && w.message?.result?.serverInfo);
  const discovered = wire.find(
    (w) => w.dir === 'server->client' && w.message?.result?.supportedVersions,
  );
  report.serverInfo =
    init?.message.result.serverInfo ??
    discovered?.message.result._meta?.['io.modelcontextprotocol/serverInfo'];
  return report;
});
