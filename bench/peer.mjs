/* global process, fetch */
// The hand-written peer: what a trader writes instead of the gateway. One file, SDK v3 GetSecretValue (cached per
// container, as anyone would) and a fetch of the jData request: no validation, no idempotency, no error contract.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

const sm = new SecretsManagerClient(
  process.env.SECRETS_MANAGER_ENDPOINT ? { endpoint: process.env.SECRETS_MANAGER_ENDPOINT } : {},
);
let session;

export const handler = async (event) => {
  session ??= JSON.parse(
    (await sm.send(new GetSecretValueCommand({ SecretId: process.env.BROKER_SECRET_ID }))).SecretString,
  );
  const res = await fetch(`${process.env.BROKER_BASE_URL}/ClientAPI/${process.env.PEER_OPERATION}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain', Authorization: `Bearer ${session.accessToken}` },
    body: `jData=${JSON.stringify({ uid: session.uid, actid: session.actid, ...event })}`,
  });
  return res.json();
};
