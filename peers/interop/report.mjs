// Shared by the client scripts: the checks they run and the one JSON report they print.
// The SDK clients themselves are used unmodified; this module only calls their public methods.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The installed version of a package (its package.json is not always exported), looked up from
 * `from` (a file URL; this folder by default), as Node's resolution would find it.
 */
export function installedVersion(name, from = import.meta.url) {
  for (let dir = new URL('./', from); ; dir = new URL('../', dir)) {
    try {
      const file = new URL(`./node_modules/${name}/package.json`, dir);
      return JSON.parse(readFileSync(file, 'utf8')).version;
    } catch (error) {
      if (error.code !== 'ENOENT' || dir.pathname === '/') {
        throw error;
      }
    }
  }
}

/**
 * The era and protocol version the session used, as the wire shows them (not as the client says):
 * legacy when an `initialize` got a result (its protocolVersion), modern when tool requests carried
 * 2026-07-28 `_meta` (its protocolVersion).
 */
export function eraOnTheWire(wire) {
  const answered = new Map();
  for (const { dir, message } of wire) {
    if (dir === 'server->client' && message.id !== undefined && message.result !== undefined) {
      answered.set(JSON.stringify(message.id), message.result);
    }
  }
  for (const { dir, message } of wire) {
    if (dir !== 'client->server') continue;
    if (message.method === 'initialize' && answered.has(JSON.stringify(message.id))) {
      return { era: 'legacy', protocolVersion: answered.get(JSON.stringify(message.id)).protocolVersion };
    }
    const meta = message.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
    if (message.method === 'tools/list' && meta !== undefined) {
      return { era: 'modern', protocolVersion: meta };
    }
  }
  return { era: 'unknown', protocolVersion: null };
}

/**
 * The command line: `node ts-vN-client.mjs [--negotiation=MODE] SERVER_COMMAND [ARGS...]`. Only
 * the v2 client reads MODE (its versionNegotiation mode, `auto` unless told).
 */
export function serverCommand(argv) {
  let rest = argv.slice(2);
  let negotiation = 'auto';
  if (rest[0]?.startsWith('--negotiation=')) {
    negotiation = rest[0].slice('--negotiation='.length);
    rest = rest.slice(1);
  }
  const [command, ...args] = rest;
  if (!command || !['auto', 'legacy'].includes(negotiation)) {
    process.stderr.write(
      'usage: node ts-vN-client.mjs [--negotiation=auto|legacy] SERVER_COMMAND [ARGS...]\n',
    );
    process.exit(2);
  }
  return { command, args, negotiation };
}

/**
 * The child's environment: the SDK's default inherited set (what a host passes by default),
 * plus JAVA_HOME when set, so `./notes-mcp` finds the same JDK the build used, and XDG_CACHE_HOME
 * when set, so a test's search index goes to the test's own cache folder, never the home's.
 */
export function childEnv(getDefaultEnvironment) {
  const env = getDefaultEnvironment();
  for (const name of ['JAVA_HOME', 'XDG_CACHE_HOME']) {
    if (process.env[name]) {
      env[name] = process.env[name];
    }
  }
  return env;
}

/**
 * Records every JSON-RPC message on the session's transport (both directions), for the report:
 * when an official client and our server disagree, the wire says who sent what. Wraps the
 * transport instance's send and onmessage; the client code is untouched.
 */
export function traceTransport(transport) {
  const wire = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.push({ dir: 'client->server', message });
    return send(message, options);
  };
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler =
        fn === undefined
          ? undefined
          : (message, extra) => {
              wire.push({ dir: 'server->client', message });
              return fn(message, extra);
            };
    },
  });
  return wire;
}

/** A thrown error as plain JSON: class, JSON-RPC code (when it is a protocol error), message, data. */
export function describeError(error) {
  if (!(error instanceof Error)) {
    return { thrown: String(error) };
  }
  const out = { errorClass: error.constructor?.name ?? 'Error', message: error.message };
  if (error.code !== undefined) {
    out.code = error.code;
  }
  if (error.data !== undefined) {
    out.data = error.data;
  }
  return out;
}

/** Runs a call and keeps either its result or what it threw. */
export async function outcome(call) {
  try {
    return { result: await call() };
  } catch (error) {
    return { error: describeError(error) };
  }
}

/**
 * The checks every client script runs against a connected client: list the tools, read a note,
 * try a refused read, call a tool that does not exist.
 */
export async function runChecks(client) {
  const listed = await client.listTools();
  return {
    tools: listed.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
    })),
    listResult: listed,
    readNote: await outcome(() =>
      client.callTool({ name: 'read_note', arguments: { path: 'notes.txt' } }),
    ),
    refusedRead: await outcome(() =>
      client.callTool({ name: 'read_note', arguments: { path: '../secret.txt' } }),
    ),
    unknownTool: await outcome(() =>
      client.callTool({ name: 'save_note', arguments: { path: 'draft.txt', content: 'x' } }),
    ),
  };
}

/** The server's `-root` folder, from its command line. */
export function rootOf(args) {
  const at = args.indexOf('-root');
  return at >= 0 ? args[at + 1] : null;
}

/**
 * The `search_notes` calls, run when the server lists the tool (a server with a policy file): a
 * word only the interop fixture's notes.txt holds, a word no note holds, and two refusals the
 * server gives as tool results (an empty query; limit 0).
 */
export const SEARCHES = {
  search: { query: 'pipes' },
  searchNoHits: { query: 'zorblax' },
  searchEmptyQuery: { query: '' },
  searchLimitZero: { query: 'pipes', limit: 0 },
};

/** What the server answers a search it could not answer in time while its index is built. */
export const STILL_BUILDING = 'the search index is still being built: ';

/**
 * A `search_notes` call, made again while the answer is that the index is still being built (as
 * that answer asks; each is answered within 5 s), for at most a minute.
 */
export async function searchWhileBuilt(client, args) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await client.callTool({ name: 'search_notes', arguments: args });
    const text = result?.content?.[0]?.text ?? '';
    if (!(result?.isError && text.startsWith(STILL_BUILDING)) || Date.now() > deadline) {
      return result;
    }
  }
}

/**
 * The resource checks every TypeScript client runs: list and read resources, the template, a
 * refused read, a path completed, the `SEARCHES` when the server lists `search_notes`, and a change
 * notification after `notes.txt` is rewritten on disk (the same bytes, so later checks read what
 * they expect). `subscribe(uri)` subscribes in the client's era's way; `onUpdated(handler)`
 * registers the client's handler for `notifications/resources/updated`.
 */
export async function runResourceChecks(client, { root, tools, subscribe, onUpdated }) {
  const uri = 'note:///notes.txt';
  const checks = {
    resourceList: await outcome(() => client.listResources()),
    templateList: await outcome(() => client.listResourceTemplates()),
    resourceRead: await outcome(() => client.readResource({ uri })),
    refusedResourceRead: await outcome(() => client.readResource({ uri: 'note:///..%2Fsecret.txt' })),
    completion: await outcome(() =>
      client.complete({
        ref: { type: 'ref/resource', uri: 'note:///{+path}' },
        argument: { name: 'path', value: 'no' },
      }),
    ),
  };
  if (tools.some((t) => t.name === 'search_notes')) {
    for (const [check, args] of Object.entries(SEARCHES)) {
      checks[check] = await outcome(() => searchWhileBuilt(client, args));
    }
  } else {
    checks.search = { skipped: 'the server lists no search_notes' };
  }
  let told;
  const updated = new Promise((resolve) => {
    told = resolve;
  });
  onUpdated((notification) => told(notification.params));
  checks.subscription = await outcome(() => subscribe(uri));
  const file = join(root, 'notes.txt');
  writeFileSync(file, readFileSync(file));
  checks.updated = await Promise.race([
    updated,
    new Promise((resolve) => setTimeout(() => resolve({ timedOut: 15000 }), 15000)),
  ]);
  return checks;
}

/** Prints the report and exits; any unexpected failure goes to stderr with a non-zero exit. */
export async function main(body) {
  let report;
  try {
    report = await body();
  } catch (error) {
    process.stderr.write(`interop client failed: ${error?.stack ?? error}\n`);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(report) + '\n', () => process.exit(0));
}
