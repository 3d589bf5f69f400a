// The official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.x), unmodified: it speaks the
// legacy era only (initialize with 2025-11-25, then tools/list and tools/call).
// Usage: node ts-v1-client.mjs SERVER_COMMAND [ARGS...]
// Prints one JSON report on stdout (see report.mjs); exits non-zero on an unexpected failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  childEnv,
  installedVersion,
  main,
  rootOf,
  runChecks,
  runResourceChecks,
  serverCommand,
  traceTransport,
} from './report.mjs';

const sdkVersion = installedVersion('@modelcontextprotocol/sdk');

await main(async () => {
  const { command, args } = serverCommand(process.argv);
  const client = new Client({ name: 'ts-sdk-v1-interop', version: sdkVersion });
  const transport = new StdioClientTransport({
    command,
    args,
    env: childEnv(getDefaultEnvironment),
    stderr: 'inherit',
  });
  const wire = traceTransport(transport);
  // The v1 client has no getter for the negotiated version; it hands it to the transport through
  // the optional Transport.setProtocolVersion hook (meant for HTTP headers), so record it there.
  let protocolVersion;
  transport.setProtocolVersion = (version) => {
    protocolVersion = version;
  };
  await client.connect(transport);
  const report = {
    sdk: { package: '@modelcontextprotocol/sdk', version: sdkVersion },
    era: 'legacy',
    protocolVersion,
    serverInfo: client.getServerVersion(),
    serverCapabilities: client.getServerCapabilities(),
  };
  Object.assign(report, await runChecks(client));
  Object.assign(
    report,
    await runResourceChecks(client, {
      root: rootOf(args),
      tools: report.tools,
      subscribe: (uri) => client.subscribeResource({ uri }),
      onUpdated: (handler) =>
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, handler),
    }),
  );
  await client.close();
  report.wire = wire;
  return report;
});
