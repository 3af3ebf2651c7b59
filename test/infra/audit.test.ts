/**
 * The five-year audit archive: the locked bucket, the delivery stream and its least-privilege role, one subscription
 * per log group that carries audit records, and the retention setting.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';

import { OPERATIONS } from '../../functions/manifest/index.js';
import { AUDIT_MESSAGES, AuditArchive } from '../../infra/constructs/audit.js';
import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate } from '../support/gateway-template.js';

const synth = (context: Record<string, unknown> = {}) =>
  gatewayTemplate(buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], egress: 'none', ...context } })));

type Res = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
let t: Template;
let resources: Record<string, Res>;
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(() => {
  t = synth();
  resources = (t.toJSON() as { Resources: Record<string, Res> }).Resources;
});

describe('audit archive', () => {
  it('is an S3 bucket with Object Lock in compliance mode for five years, encrypted, private, TLS only, kept on teardown', () => {
    const [[id, bucket]] = ofType('AWS::S3::Bucket') as [[string, Res]];
    expect(bucket.Properties).toMatchObject({
      ObjectLockEnabled: true,
      ObjectLockConfiguration: {
        ObjectLockEnabled: 'Enabled',
        Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 1827 } },
      },
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect(bucket.DeletionPolicy).toBe('Retain');
    t.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('moves objects to Glacier Instant Retrieval after 30 days and expires them only after the lock has run out', () => {
    const [[, bucket]] = ofType('AWS::S3::Bucket') as [[string, Res]];
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    expect(rules).toEqual([
      expect.objectContaining({
        Status: 'Enabled',
        Transitions: [{ StorageClass: 'GLACIER_IR', TransitionInDays: 30 }],
        ExpirationInDays: 1828,
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      }),
    ]);
  });

  it('delivers through an encrypted Firehose stream whose role may write to the bucket and never delete', () => {
    const [[, stream]] = ofType('AWS::KinesisFirehose::DeliveryStream') as [[string, Res]];
    const [[bucketId]] = ofType('AWS::S3::Bucket') as [[string, Res]];
    expect(stream.Properties).toMatchObject({
      DeliveryStreamType: 'DirectPut',
      DeliveryStreamEncryptionConfigurationInput: { KeyType: 'AWS_OWNED_CMK' },
      ExtendedS3DestinationConfiguration: {
        BucketARN: { 'Fn::GetAtt': [bucketId, 'Arn'] },
        BufferingHints: { IntervalInSeconds: 300, SizeInMBs: 5 },
      },
    });
    const roleId = (stream.Properties.ExtendedS3DestinationConfiguration as { RoleARN: { 'Fn::GetAtt': [string] } })
      .RoleARN['Fn::GetAtt'][0];
    const policies = ofType('AWS::IAM::Policy').filter(([, p]) => JSON.stringify(p.Properties.Roles).includes(roleId));
    expect(policies).toHaveLength(1);
    const actions = (
      policies[0]![1].Properties.PolicyDocument as { Statement: { Action: string[] }[] }
    ).Statement.flatMap((s) => s.Action);
    expect(actions.sort()).toEqual([...AuditArchive.DELIVERY_ACTIONS].sort());
    expect(actions.some((a) => /Delete|PutObjectRetention|PutObjectLegalHold|BypassGovernance/.test(a))).toBe(false);
    // CloudWatch Logs' one role may only put records into this stream; nothing unused lands in the template.
    const logsRoles = ofType('AWS::IAM::Role').filter(([, r]) =>
      JSON.stringify(r.Properties.AssumeRolePolicyDocument).includes('logs.amazonaws.com'),
    );
    expect(logsRoles).toHaveLength(1);
    const logsPolicy = ofType('AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.Roles).includes(logsRoles[0]![0]),
    );
    expect(
      (logsPolicy[0]![1].Properties.PolicyDocument as { Statement: { Action: string[] }[] }).Statement.flatMap(
        (s) => s.Action,
      ).sort(),
    ).toEqual(['firehose:PutRecord', 'firehose:PutRecordBatch']);
    expect(JSON.stringify((t.toJSON() as { Mappings?: unknown }).Mappings ?? {})).not.toMatch(/firehose/i);
  });

  it('subscribes every log group with audit records (order functions, kill switch, token writers, signal worker, Coverage: a close) with one filter on the audit messages', () => {
    const filters = ofType('AWS::Logs::SubscriptionFilter').map(([, f]) => f.Properties);
    const orderFunctions = OPERATIONS.filter((op) => op.kind === 'order').map((op) => op.name);
    const groups = filters.map((f) => JSON.stringify(f.LogGroupName));
    for (const name of [...orderFunctions, 'KillSwitch', 'SessionOAuthCallback', 'SignalWorker', 'Coverage'])
      expect(
        groups.filter((g) => g.includes(name)),
        name,
      ).toHaveLength(1);
    expect(filters).toHaveLength(orderFunctions.length + 4);
    for (const f of filters) {
      for (const message of AUDIT_MESSAGES) expect(f.FilterPattern).toContain(`$.message = "${message}"`);
    }
    // With the TOTP renewal, its log group too.
    const totp = (synth({ sessionRenewal: 'totp', broker: 'shoonya' }).toJSON() as { Resources: Record<string, Res> })
      .Resources;
    expect(Object.values(totp).filter((r) => r.Type === 'AWS::Logs::SubscriptionFilter')).toHaveLength(
      orderFunctions.length + 5,
    );
  });

  it('-c auditRetentionDays sets the lock; outside 365..3653 the synth fails with one line', () => {
    const longer = synth({ auditRetentionDays: '3653' });
    longer.hasResourceProperties('AWS::S3::Bucket', {
      ObjectLockConfiguration: { Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3653 } } },
    });
    expect(() => synth({ auditRetentionDays: '30' })).toThrow(
      /auditRetentionDays must be a whole number of days from 365 to 3653/,
    );
  });
});
