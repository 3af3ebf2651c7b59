/* global process, Buffer, URL */
// The hand-written peer: what a trader writes instead of the gateway, one small Lambda handler. The session from
// Secrets Manager (SDK v3 GetSecretValue, cached per container), the jData request sent as the deployment sends it
// (`BROKER_AUTH`: a jKey appended to the body, or a Bearer header; never inside jData) with node:https (node:http
// for an http: URL, as on loopback), and the reply checked: anything but a success `stat` (or a list) throws. No
// validation, no idempotency, no governor, no events, no metrics. Bundled like the functions (bench/peer/bundle.ts).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const sm = new SecretsManagerClient(
  process.env.SECRETS_MANAGER_ENDPOINT ? { endpoint: process.env.SECRETS_MANAGER_ENDPOINT } : {},
);
let session;
// Success as the broker words it: `Ok`, or `OI created` / `OI replaced` / `OI deleted` for the GTT writes.
const OK = /^(Ok|OI (created|replaced|deleted))$/i;

const post = (url, headers, body) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      target,
      { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, timeout: 8_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('broker timeout')));
    req.on('error', reject);
    req.end(body);
  });

export const handler = async (event) => {
  session ??= JSON.parse(
    (await sm.send(new GetSecretValueCommand({ SecretId: process.env.BROKER_SECRET_ID }))).SecretString,
  );
  const jData = `jData=${JSON.stringify({ uid: session.uid, actid: session.actid, ...event })}`;
  const jKey = process.env.BROKER_AUTH === 'jkey';
  const base = process.env.BROKER_BASE_URL.replace(/\/+$/, '');
  const url = `${base}${new URL(base).pathname === '/' ? '/ClientAPI' : ''}/${process.env.PEER_OPERATION}`;
  const { status, text } = await post(
    url,
    jKey
      ? { 'Content-Type': 'text/plain' }
      : { 'Content-Type': 'text/plain', Authorization: `Bearer ${session.accessToken}` },
    jKey ? `${jData}&jKey=${encodeURIComponent(session.accessToken)}` : jData,
  );
  const reply = JSON.parse(text);
  // The family's empty list: `Not_Ok` with `no data` (no pending or triggered orders).
  if (reply.stat === 'Not_Ok' && /^no data$/i.test(reply.emsg ?? '')) return [];
  if (status >= 400 || !(Array.isArray(reply) || OK.test(reply.stat)))
    throw new Error(`${process.env.PEER_OPERATION}: HTTP ${status} ${text.slice(0, 200)}`);
  return reply;
};
