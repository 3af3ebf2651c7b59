/**
 * What the MCP tests share: a tool call answered with its structured content, the emulator npm start runs (from its
 * banner) with the pending GTTs it holds, and the tests' sample GTT.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { emulatorControl } from './emulator-control.js';
import { SAMPLE_ORDER } from './sample-order.js';

/** The tests' sample GTT, on INFY-EQ. */
export const PLACE = { ...SAMPLE_ORDER, tsym: 'INFY-EQ' };

/** Calls a tool: its result with `structuredContent` typed as the tools answer it. */
export const callTool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult & {
    structuredContent?: Record<string, unknown>;
  };

/** The broker emulator of an `npm start` (its banner names its URL and uid): its pending GTTs, read directly. */
export const emulatorOfBanner = (output: string) => {
  const banner = /broker emulator\s+(http:\/\/127\.0\.0\.1:\d+)\s+\(uid (\S+),/.exec(output);
  if (!banner) throw new Error(`npm start printed no emulator banner:\n${output}`);
  const control = emulatorControl(banner[1]!);
  const uid = banner[2]!;
  return { control, uid, pending: async () => (await control.orders(uid)).filter((o) => o.state === 'pending') };
};

/** An SDK client of the remote server (`POST /mcp` at `baseUrl`) presenting an assistant's bearer token. */
export const remoteMcpClient = async (baseUrl: string, token: string): Promise<Client> => {
  const { Client: SdkClient } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const client = new SdkClient({ name: 'gtt-gateway-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
};
