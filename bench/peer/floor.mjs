/* global process, Buffer, URL */
// The floor of a journaled broker write: exactly the DynamoDB writes the journal needs, done bare. A conditional
// claim before the broker (PutItem, `attribute_not_exists(id)`: one claim per key) and the completion after it
// (UpdateItem of the status and the result), in DynamoDB's JSON 1.0 protocol, SigV4-signed with node:crypto and sent
// with node:http(s) over a keep-alive agent: the least a hand-written function could do for the same guarantee. No
// retries, no validation, no governor, no lease, no events. bench/warm.ts times it beside the gateway.
import { createHash, createHmac } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

const hash = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key, text) => createHmac('sha256', key).update(text, 'utf8').digest();

/** The floor's two writes against `endpoint` (a local DynamoDB) on `table`, signed as `credentials`. */
export const floorWrites = ({ endpoint, table, region = 'us-east-1', credentials }) => {
  const url = new URL(endpoint);
  const secure = url.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const call = (action, input) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(input);
      const amzDate = new Date().toISOString().replace(/[:-]|\.\d{3}/g, '');
      const day = amzDate.slice(0, 8);
      const target = `DynamoDB_20120810.${action}`;
      const canonical = [
        'POST',
        '/',
        '',
        `content-type:application/x-amz-json-1.0`,
        `host:${url.host}`,
        `x-amz-date:${amzDate}`,
        `x-amz-target:${target}`,
        '',
        'content-type;host;x-amz-date;x-amz-target',
        hash(body),
      ].join('\n');
      const scope = `${day}/${region}/dynamodb/aws4_request`;
      const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, hash(canonical)].join('\n');
      const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), region), 'dynamodb'), 'aws4_request');
      const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex');
      const req = send(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/x-amz-json-1.0',
            'x-amz-date': amzDate,
            'x-amz-target': target,
            'content-length': Buffer.byteLength(body),
            authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=${signature}`,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(text)
              : reject(new Error(`floor ${action}: HTTP ${res.statusCode} ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return {
    /** The claim: one item per key, refused if the key was claimed before. */
    claim: (id) =>
      call('PutItem', {
        TableName: table,
        Item: {
          id: { S: id },
          status: { S: 'INPROGRESS' },
          expiration: { N: String(Math.floor(Date.now() / 1000) + 3600) },
        },
        ConditionExpression: 'attribute_not_exists(id)',
      }),
    /** The completion: the status and the broker's reply on the claimed item. */
    complete: (id, result) =>
      call('UpdateItem', {
        TableName: table,
        Key: { id: { S: id } },
        UpdateExpression: 'SET #s = :s, #d = :d',
        ExpressionAttributeNames: { '#s': 'status', '#d': 'data' },
        ExpressionAttributeValues: { ':s': { S: 'COMPLETED' }, ':d': { S: result } },
      }),
    /** Any call of DynamoDB's JSON protocol, bare (bench/signals.ts: a TransactWriteItems of the webhook's items). */
    call,
    close: () => agent.destroy(),
  };
};

/** From the environment the warm probe gives it (FLOOR_ENDPOINT, FLOOR_TABLE, AWS credentials), or none. */
export const floorFromEnv = () =>
  process.env.FLOOR_ENDPOINT
    ? floorWrites({
        endpoint: process.env.FLOOR_ENDPOINT,
        table: process.env.FLOOR_TABLE,
        region: process.env.AWS_REGION ?? 'us-east-1',
        credentials: {
          accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local',
          secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
        },
      })
    : undefined;
