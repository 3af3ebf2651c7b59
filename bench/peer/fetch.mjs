/* global process, fetch, URL, AbortSignal */
// The hand-written peer with `fetch` (undici) instead of node:https: otherwise bench/peer/https.mjs line for line.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const sm = new SecretsManagerClient(
  process.env.SECRETS_MANAGER_ENDPOINT ? { endpoint: process.env.SECRETS_MANAGER_ENDPOINT } : {},
);
let session;
// Success as the broker words it: `Ok`, or `OI created` / `OI replaced` / `OI deleted` for the GTT writes.
const OK = /^(Ok|OI (created|replaced|deleted))$/i;

export const handler = async (event) => {
  session ??= JSON.parse(
    (await sm.send(new GetSecretValueCommand({ SecretId: process.env.BROKER_SECRET_ID }))).SecretString,
  );
  const jData = `jData=${JSON.stringify({ uid: session.uid, actid: session.actid, ...event })}`;
  const jKey = process.env.BROKER_AUTH === 'jkey';
  const base = process.env.BROKER_BASE_URL.replace(/\/+$/, '');
  const url = `${base}${new URL(base).pathname === '/' ? '/ClientAPI' : ''}/${process.env.PEER_OPERATION}`;
  const res = await fetch(url, {
    method: 'POST',
    headers: jKey
      ? { 'Content-Type': 'text/plain' }
      : { 'Content-Type': 'text/plain', Authorization: `Bearer ${session.accessToken}` },
    body: jKey ? `${jData}&jKey=${encodeURIComponent(session.accessToken)}` : jData,
    signal: AbortSignal.timeout(8_000),
  });
  const text = await res.text();
  const reply = JSON.parse(text);
  // The family's empty list: `Not_Ok` with `no data` (no pending or triggered orders).
  if (reply.stat === 'Not_Ok' && /^no data$/i.test(reply.emsg ?? '')) return [];
  if (res.status >= 400 || !(Array.isArray(reply) || OK.test(reply.stat)))
    throw new Error(`${process.env.PEER_OPERATION}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return reply;
};
