/**
 * Removing any one granted action a function uses makes a named test fail (issue 53). One local stack, the deployed
 * permissions enforced and every evaluated call recorded, driven through every function of the manifest that runs
 * here, step by step (test/support/permissions-tour.ts); a second, small one with the TOTP login for SessionRenewal.
 * Each step asserts its answer, so a call the deployed permissions refuse fails its step with AWS's reason. Then each
 * action the synthesized stacks grant on a guarded local resource (a role's, and the DynamoDB endpoint's policy's) is
 * taken away alone and the recorded calls evaluated again (local/permissions/grant-use.ts):
 *
 * - every grant a recorded call needs names the tour's steps that made those calls: without it, those steps fail;
 * - every grant is needed by some recorded call, but for the few listed below with the reason each is granted
 *   unused here (a CDK artifact, a function the local stack does not run, a path the tour cannot take);
 * - and, concretely, one grant taken away: the signed request it let through is refused with AccessDeniedException.
 *
 * About 20 s on two cores (the tour 15 s, the grants' evaluation 5 s), once the stacks' permissions are cached.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FUNCTIONS } from '../../functions/manifest/index.js';
import { environmentFor } from '../../local/functions.js';
import { type CheckedCall, createPermissionGate, localCredentials } from '../../local/permissions/gate.js';
import { type GrantUse, grantUses, withoutAction } from '../../local/permissions/grant-use.js';
import { dynamoDbCalls } from '../../local/permissions/requests.js';
import { localArn } from '../../local/permissions/resolve.js';
import { NodeSha256 } from '../../local/permissions/sigv4.js';
import { stackPolicies } from '../../local/permissions/stack-policies.js';
import { LOCAL_RUN_PREFIX, type LocalStack, startLocalStack } from '../../local/run-local.js';
import { HIGH_ORDER_RATE } from '../support/order-rate.js';
import {
  assistantSteps,
  killSwitchSteps,
  orderSteps,
  planSteps,
  sessionSteps,
  signalSteps,
  totpSessionSteps,
  tourOf,
} from '../support/permissions-tour.js';

/**
 * The grants no call of the tour needs, each with why it is granted anyway (`holder action resource`). Each rule must
 * match a grant the tour left unused and none it needed: the list says only what is true. Those ending "granted
 * unused" are candidates to remove (issue 53); the others cannot be needed by a call here.
 */
const UNUSED: readonly { grants: RegExp; reason: string }[] = [
  {
    grants: /^\S+ secretsmanager:DescribeSecret /,
    reason: "CDK's grantRead gives it beside GetSecretValue; the code never describes a secret",
  },
  {
    grants: /^NotifyFormatter /,
    reason: "the webhook's formatter (a bus rule's target) does not run on the local stack (notify-formatter.test.ts)",
  },
  {
    grants: /^EventForwarder dynamodb:(DescribeStream|GetRecords|GetShardIterator) /,
    reason:
      "the stream's event source mapping reads the stream with the role, never the code (here the proxy delivers)",
  },
  {
    grants: /^SignalWorker sqs:/,
    reason: "the queue's event source mapping receives and deletes with the role; the code never calls SQS",
  },
  {
    grants: /^SignalWebhook sqs:(GetQueueAttributes|GetQueueUrl) /,
    reason: "CDK's grantSendMessages gives them beside SendMessage; the code only sends",
  },
  {
    grants: /^EventForwarder dynamodb:GetItem gtt-gateway-events$/,
    reason: "a cancelled order without known# items is read from the watcher's view: one never placed through here",
  },
  {
    // Coverage reads a close's plan by its key (risk/close-store.ts): needed, and so the endpoint's policy's too.
    grants: /^(?!Coverage |DynamoDbEndpoint )\S+ dynamodb:GetItem gtt-gateway-idempotency$/,
    reason:
      "the journal's read when a failed conditional put brings no item (journal.ts `read`); DynamoDB returns it " +
      '(ALL_OLD), as the local proxy does: granted unused',
  },
  {
    grants: /^(PlaceG?T?T?O?C?O?Order|Coverage) dynamodb:UpdateItem gtt-gateway-controls$/,
    reason:
      "a place (Coverage's: a position's close) takes no order lease: the governor table set granted whole, its UpdateItem granted unused",
  },
  {
    grants: /^(Plans|SignalWorker) dynamodb:BatchWriteItem gtt-gateway-events$|^Plans events:PutEvents /,
    reason: "the plans' events go to the outbox; the EventForwarder writes their markers and publishes: granted unused",
  },
  {
    grants: /^GttWatcher dynamodb:DeleteItem gtt-gateway-events$/,
    reason:
      "the plans' set given to the watcher's engine: only the Plans function removes a plan (its GetItem: the coverage settings)",
  },
  {
    grants: /^(SessionRenewal|OAuthCallback) secretsmanager:GetSecretValue broker-session$/,
    reason: 'a login writes the session, never reads it (sessionSecret:write includes the read): granted unused',
  },
  {
    grants: /^McpServer execute-api:Invoke (GET\/gtt-orders\/triggered|(PUT|PATCH)\/gtt-orders\/oco\/\*)$/,
    reason:
      "also given by an {alId} route's ARN (GET/gtt-orders/*: IAM's * spans '/'), which also allows GET " +
      '/gtt-orders/enabled, not a tool: redundant, see issue',
  },
];
const reasonOf = (key: string) => UNUSED.find((rule) => rule.grants.test(key));

let stack: LocalStack;
let totp: LocalStack;
const recorded: CheckedCall[] = [];
let uses: GrantUse[] = [];

const environments = () => Object.fromEntries(FUNCTIONS.map((f) => [f.name, environmentFor(f, stack.local)]));
/** `holder action resource`: the resource by its name (a table's, a secret's), a route by its method and path. */
const keyOf = (use: GrantUse) =>
  `${use.holder} ${use.action} ${use.resource.split('$default/')[1] ?? use.resource.split(/[:/]/).slice(-1)[0]}`;

beforeAll(async () => {
  stack = await startLocalStack({ recordPermissions: true, settings: { ...HIGH_ORDER_RATE } });
});
afterAll(async () => {
  await totp?.close();
  await stack?.close();
});

describe('every function of the stack, driven with the deployed permissions enforced', () => {
  it('the tour: each step answers as it should, no call refused', async () => {
    const tour = tourOf(stack);
    // Each part on its own: a part whose step fails stops there, and the others still run (and record).
    const failed: string[] = [];
    const part = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        failed.push(error instanceof Error ? error.message : String(error));
      }
    };
    await part(() => orderSteps(stack, tour));
    await part(() => planSteps(stack, tour));
    // Before the MCP's own kill switch: the first switch on here writes the account's item.
    await part(() => killSwitchSteps(tour));
    await part(() => signalSteps(stack, tour));
    await part(() => assistantSteps(stack, tour));
    await part(async () => {
      await tour.step('the EventForwarder delivers the events', () => stack.eventsForwarded());
      await tour.call('read the events history', 'GET', '/events', 200);
    });
    await part(() => tour.call('the InstrumentRefresh', 'POST', `${LOCAL_RUN_PREFIX}InstrumentRefresh`, 200));
    await sessionSteps(stack, tour, part);
    // The classic deployment: the scheduled TOTP login.
    totp = await startLocalStack({ recordPermissions: true, sessionRenewal: true });
    await part(() => totpSessionSteps(tourOf(totp)));

    expect(failed, failed.join('\n\n')).toEqual([]);
    expect([...stack.permissions!.refused, ...totp.permissions!.refused]).toEqual([]);
  });

  it('every grant a call needs names the steps that need it; every grant is needed, but for those listed', async () => {
    recorded.push(...stack.permissions!.checked, ...(totp?.permissions?.checked ?? []));
    expect(recorded.length, 'the tour ran').toBeGreaterThan(0);
    uses = await grantUses(await stackPolicies(), environments(), recorded);
    const needed = uses.filter((u) => u.neededBy.length > 0);
    const table = uses.map((u) => {
      const steps = [...new Set(u.neededBy.map((c) => c.label ?? '(no step)'))];
      return `${keyOf(u).padEnd(64)} ${steps.length ? steps.join(' | ') : `- ${reasonOf(keyOf(u))?.reason ?? 'UNUSED'}`}`;
    });
    console.log(
      `grants on guarded resources: ${uses.length}, needed by the tour: ${needed.length}\n${table.join('\n')}`,
    );

    // (a) Each needed grant's calls were made by labelled steps: those steps fail without it.
    const unlabelled = needed.filter((u) => u.neededBy.some((c) => !c.label)).map(keyOf);
    expect(unlabelled, 'grants needed by calls made outside any step').toEqual([]);

    // (b) Each grant is needed, or listed with its reason; and no rule of the list names a grant that is needed.
    const unused = uses.filter((u) => u.neededBy.length === 0).map(keyOf);
    expect(
      unused.filter((k) => !reasonOf(k)),
      'granted, but no call of the tour needs it',
    ).toEqual([]);
    expect(
      needed.map(keyOf).filter((k) => reasonOf(k)),
      'listed as unused, but a call needs it',
    ).toEqual([]);
    expect(
      UNUSED.filter((rule) => !unused.some((k) => rule.grants.test(k))).map((rule) => String(rule.grants)),
      'rules that match no unused grant',
    ).toEqual([]);
  });
});

describe('one grant taken away', () => {
  it("without PlaceGTTOrder's dynamodb:PutItem on the idempotency table, its request is AccessDeniedException", async () => {
    const permissions = await stackPolicies();
    const table = localArn.table(stack.local.values.idempotencyTableName as string);
    const call = recorded.find(
      (c) => c.function === 'PlaceGTTOrder' && c.action === 'dynamodb:PutItem' && c.resource === table,
    );
    expect(call, 'the tour recorded the place').toBeDefined();
    const use = uses.find(
      (u) => u.holder === 'PlaceGTTOrder' && u.action === 'dynamodb:PutItem' && u.resource === table,
    );
    expect(use?.neededBy.map((c) => c.label)).toContain('place a GTT');

    const withoutPut = withoutAction(permissions, 'PlaceGTTOrder', 'dynamodb:PutItem');
    // The place's own request, signed with PlaceGTTOrder's credentials, as the local DynamoDB endpoint hands it over.
    const body = JSON.stringify({
      TableName: stack.local.values.idempotencyTableName,
      Item: { id: { S: String((call!.context?.['dynamodb:LeadingKeys'] as string[] | undefined)?.[0]) } },
    });
    const host = new URL(stack.dynamo.url).host;
    const signed = await new SignatureV4({
      credentials: localCredentials('PlaceGTTOrder'),
      region: 'us-east-1',
      service: 'dynamodb',
      sha256: NodeSha256,
      uriEscapePath: true,
      applyChecksum: false,
    }).sign({
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: '/',
      headers: { host, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' },
      body,
    });
    const request = {
      method: 'POST',
      url: '/',
      headers: Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toLowerCase(), String(v)])),
      body,
    };
    const calls = dynamoDbCalls('PutItem', JSON.parse(body) as Record<string, unknown>, stack.dynamo.partitionKeyOf);
    expect(await createPermissionGate(permissions, environments()).authorize(request, calls)).toBeUndefined();
    expect(await createPermissionGate(withoutPut, environments()).authorize(request, calls)).toMatchObject({
      status: 400,
      type: 'AccessDeniedException',
      message: expect.stringMatching(
        /PlaceGTTOrder is not authorized to perform: dynamodb:PutItem on resource: .*gtt-gateway-idempotency/,
      ),
    });
  });
});
