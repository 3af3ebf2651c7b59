/** `npm run emulator -- [--port N] [--token T] [--accept-jkey] [--empty-list-as-array] [--invalid-input-as-400]` */
import { parseArgs } from 'node:util';
import { startEmulator } from './server.js';

const usage = 'usage: npm run emulator -- [--port N (default 9100, 0 = any free port)] [--token T] [--accept-jkey] [--empty-list-as-array] [--invalid-input-as-400]';

let values;
try {
  values = parseArgs({
    options: {
      port: { type: 'string' },
      token: { type: 'string' },
      'accept-jkey': { type: 'boolean' },
      'empty-list-as-array': { type: 'boolean' },
      'invalid-input-as-400': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }).values;
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const port = values.port === undefined ? 9100 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(values.port)}\n${usage}`);
  process.exit(2);
}
if (values.token !== undefined && !/^[\x21-\x7e]{8,256}$/.test(values.token)) {
  console.error(`--token must be 8 to 256 printable characters without spaces\n${usage}`);
  process.exit(2);
}

const running = await startEmulator({
  port,
  ...(values.token ? { token: values.token } : {}),
  acceptJKey: values['accept-jkey'] ?? false,
  emptyListAsArray: values['empty-list-as-array'] ?? false,
  invalidInputAs400: values['invalid-input-as-400'] ?? false,
}).catch((error: NodeJS.ErrnoException) => {
  console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use; try --port 0` : String(error));
  process.exit(1);
});

console.log(`broker emulator listening on ${running.url}`);
console.log(`demo account  uid ${running.uid}  actid ${running.actid}`);
console.log(`session token ${running.token}`);
console.log(`\ntry:\n  curl -s -X POST ${running.url}/ClientAPI/GetPendingGTTOrder -H 'Content-Type: text/plain' \\
    -H 'Authorization: Bearer ${running.token}' --data 'jData={"uid":"${running.uid}"}'`);

const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
