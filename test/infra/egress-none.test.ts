/**
 * Egress none (infra/constructs/egress.ts, docs/explanation/egress.md): the template is today's, without any VPC, and a static
 * egress only adds to it.
 */
import { beforeAll, describe, expect, it } from 'vitest';

import { OPERATIONS } from '../../functions/manifest/index.js';
import { costAtRest } from '../../infra/constructs/egress-cost.js';
import {
  DEFAULT_SESSION_FUNCTIONS,
  egressDoc,
  FORWARDER_FUNCTIONS,
  idsOf,
  KILL_SWITCH_FUNCTIONS,
  nagFindings,
  type Resource,
  type Statement,
  synth,
  type TemplateJson,
} from '../support/egress-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

describe('egress none', () => {
  let built: ReturnType<typeof synth>;
  let none: TemplateJson;
  let natInstance: TemplateJson;
  const N = OPERATIONS.length;
  /** The session functions of a default deployment (OAuth, health) and their extra parts. */
  const S = DEFAULT_SESSION_FUNCTIONS;
  const K = KILL_SWITCH_FUNCTIONS;
  const F = FORWARDER_FUNCTIONS;

  beforeAll(() => {
    built = synth({ egress: 'none' });
    none = gatewayTemplate(built).toJSON() as TemplateJson;
    natInstance = gatewayTemplate(synth()).toJSON() as TemplateJson;
  });

  it('has no VPC, no EC2 resource at all, and functions without VpcConfig or ENI permissions', () => {
    expect(built.gateway.egress).toBe('none');
    expect(Object.values(none.Resources).filter((r) => r.Type.startsWith('AWS::EC2::'))).toEqual([]);
    for (const id of idsOf(none, 'AWS::Lambda::Function'))
      expect(none.Resources[id]!.Properties.VpcConfig).toBeUndefined();
    expect(JSON.stringify(none.Resources)).not.toMatch(/"ec2:|AssociatePublicIpAddress/);
  });

  it("is the template without a VPC: today's resource types and counts", () => {
    const counts: Record<string, number> = {};
    for (const r of Object.values(none.Resources)) counts[r.Type] = (counts[r.Type] ?? 0) + 1;
    expect(counts).toEqual({
      // Session secret + the OAuth app's; idempotency, OAuth state, events, control and instruments tables.
      'AWS::SecretsManager::Secret': 2,
      'AWS::DynamoDB::Table': 5,
      // The lifecycle events: the bus, its 30-day archive and the dashboard.
      'AWS::Events::EventBus': 1,
      'AWS::Events::Archive': 1,
      'AWS::CloudWatch::Dashboard': 1,
      // Plus the kill switch's (K) and the EventForwarder's (F), the API's access logs, the console's files' copier.
      'AWS::Logs::LogGroup': N + S + K + F + 1 + 1,
      'AWS::ApiGatewayV2::Api': 1,
      'AWS::ApiGatewayV2::Stage': 1,
      // The OAuth function serves two routes, the health check one (GET /session), the kill switch three.
      // ... GET /events one, the plans four, the strategies eight (with PATCH and the signals' two reads), the signal
      // webhook one, the assistants five, the remote MCP server one (two routes: POST, and ANY for the 405), the
      // day's limits two, coverage three (with a position's close), the quote function one more (GET /options).
      'AWS::ApiGatewayV2::Integration': N + 3 + 3 + 1 + 4 + 8 + 1 + 5 + 1 + 2 + 3 + 1,
      'AWS::ApiGatewayV2::Route': N + 3 + 3 + 1 + 4 + 8 + 1 + 5 + 2 + 2 + 3 + 1,
      'AWS::Lambda::Permission': N + 3 + 3 + 1 + 4 + 8 + 1 + 5 + 2 + 2 + 3 + 1,
      'AWS::SNS::Topic': 1,
      'AWS::SNS::TopicPolicy': 1,
      // Plus the scheduler roles (health check, watcher, signal sweep, instrument refresh) and the audit archive's
      // (Firehose, CloudWatch Logs), with their policies.
      // ... and the console's (the signed-in trader's, the copier of its files).
      'AWS::IAM::Role': N + S + K + F + 4 + 2 + 2,
      'AWS::IAM::Policy': N + S + K + F + 4 + 2 + 2,
      // The audit archive: the locked bucket (and its TLS-only policy), the stream, one subscription per log group
      // with audit records (the order functions, the kill switch, the OAuth callback). The console's files and its
      // logs, each with its TLS-only policy.
      'AWS::S3::Bucket': 1 + 2,
      'AWS::S3::BucketPolicy': 1 + 2,
      'AWS::KinesisFirehose::DeliveryStream': 1,
      // ... and the signal worker, and Coverage (a position's close).
      'AWS::Logs::SubscriptionFilter': OPERATIONS.filter((op) => op.kind === 'order').length + K + 1 + 1 + 1,
      // ... and the CDK's copier of the console's files, with its AWS CLI layer.
      'AWS::Lambda::Function': N + S + K + F + 1,
      'AWS::Lambda::LayerVersion': 1,
      'Custom::CDKBucketDeployment': 1,
      // The console (infra/constructs/console.ts): its distribution, the sign-in's user pool and identity pool.
      'AWS::CloudFront::Distribution': 1,
      'AWS::CloudFront::Function': 1,
      'AWS::CloudFront::OriginAccessControl': 1,
      'AWS::CloudFront::ResponseHeadersPolicy': 1,
      'AWS::Cognito::UserPool': 1,
      'AWS::Cognito::UserPoolClient': 1,
      'AWS::Cognito::UserPoolDomain': 1,
      'AWS::Cognito::ManagedLoginBranding': 1,
      'AWS::Cognito::IdentityPool': 1,
      'AWS::Cognito::IdentityPoolRoleAttachment': 1,
      // The EventForwarder's trigger: the idempotency table's stream; the SignalWorker's: the signal queue.
      'AWS::Lambda::EventSourceMapping': 2,
      // The signal queue and its dead letters, each with its TLS-only policy.
      'AWS::SQS::Queue': 2,
      'AWS::SQS::QueuePolicy': 2,
      // The health check, the watcher, the signal worker's sweep, the instrument refresh.
      'AWS::Scheduler::Schedule': 4,
      // Errors and throttles per operation, API 5xx, errors per session function, the watcher, the kill switch and
      // the EventForwarder, SessionAlive.
      // ... and a signal in the dead-letter queue.
      'AWS::CloudWatch::Alarm': 2 * N + 1 + S + K + F + 1 + 1,
    });
  });

  it('a static egress only adds: every resource of none keeps its logical id and, but for the VPC wiring, its properties', () => {
    const strip = (id: string, r: Resource) => {
      const properties = structuredClone(r.Properties);
      if (r.Type === 'AWS::Lambda::Function') delete properties.VpcConfig;
      if (r.Type === 'AWS::IAM::Role') delete properties.Description;
      if (r.Type === 'AWS::IAM::Policy') {
        const document = properties.PolicyDocument as { Statement: Statement[] };
        document.Statement = document.Statement.filter((s) => s.Sid !== 'VpcNetworkInterfaces');
      }
      return { id, Type: r.Type, Properties: properties };
    };
    for (const [id, resource] of Object.entries(none.Resources)) {
      expect(natInstance.Resources[id], id).toBeDefined();
      expect(strip(id, natInstance.Resources[id]!)).toEqual(strip(id, resource));
    }
    // What nat-instance adds lives under the Egress construct.
    const added = Object.keys(natInstance.Resources).filter((id) => !(id in none.Resources));
    expect(added.length).toBeGreaterThan(0);
    for (const id of added) expect(id).toMatch(/^Egress/);
  });

  it('says in an output that there is no static egress, and prints no EgressIp', () => {
    expect(none.Outputs.EgressIp1).toBeUndefined();
    expect(none.Outputs.EgressIp2).toBeUndefined();
    expect(none.Outputs.EgressSetting!.Value).toMatch(/^none: no static egress IP/);
    const today = Object.keys(none.Outputs).filter((o) => o !== 'EgressSetting');
    expect(today).toEqual(Object.keys(natInstance.Outputs).filter((o) => !/^Egress/.test(o)));
  });

  it('cdk-nag reports no unsuppressed error or warning', () => {
    expect(nagFindings(built)).toEqual([]);
  });

  it('costs nothing at rest for egress, as docs/explanation/egress.md says', () => {
    expect(costAtRest(none)).toEqual({ lines: [], monthlyUsd: 0 });
    expect(egressDoc).toMatch(/\| `none` \|.*\| \*\*\$0\.00\*\* \|/);
  });
});
