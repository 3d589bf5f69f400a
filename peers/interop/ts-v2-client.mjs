// The official TypeScript SDK v2 client (@modelcontextprotocol/client), unmodified, with automatic
// version negotiation: it probes with server/discover and falls back to initialize for a legacy
// server. Usage: node ts-v2-client.mjs [--negotiation=auto|legacy] SERVER_COMMAND [ARGS...]
// (--negotiation=legacy is the SDK's own default posture: a plain 2025 initialize, no probe.)
// Prints one JSON report on stdout (see report.mjs); exits non-zero on an unexpected failure.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
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

const sdkVersion = installedVersion('@modelcontextprotocol/client');

await main(async () => {
  const { command, args, negotiation } = serverCommand(process.argv);
  const client = new Client(
    { name: 'ts-sdk-v2-interop', version: sdkVersion },
    { versionNegotiation: { mode: negotiation } },
  );
  const transport = new StdioClientTransport({
    command,
    args,
    env: childEnv(getDefaultEnvironment),
    stderr: 'inherit',
  });
  const wire = traceTransport(transport);
  await client.connect(transport);
  const checks = await runChecks(client);
  let subscription;
  const resources = await runResourceChecks(client, {
    root: rootOf(args),
    tools: checks.tools,
    // 2026-07-28: a subscriptions/listen stream; a legacy connection: resources/subscribe.
    subscribe: async (uri) => {
      if (client.getProtocolEra() === 'modern') {
        subscription = await client.listen({ resourceSubscriptions: [uri] });
        return { honoredFilter: subscription.honoredFilter };
      }
      return client.subscribeResource({ uri });
    },
    onUpdated: (handler) => client.setNotificationHandler('notifications/resources/updated', handler),
  });
  const report = {
    sdk: { package: '@modelcontextprotocol/client', version: sdkVersion },
    negotiation,
    era: client.getProtocolEra(),
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverInfo: client.getServerVersion(),
    serverCapabilities: client.getServerCapabilities(),
    discover: client.getDiscoverResult(),
    ...checks,
    ...resources,
  };
  if (subscription) {
    await subscription.close();
  }
  await client.close();
  report.wire = wire;
  return report;
});
