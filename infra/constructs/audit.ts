/**
 * The five-year audit archive (docs/explanation/compliance.md): the functions' audit records (`order action`, `kill switch`,
 * `session renewed`) go from their CloudWatch log groups through a subscription filter and a Firehose delivery
 * stream into an S3 bucket with Object Lock in compliance mode (5 years by default), encrypted, private, moved to a
 * cheaper storage class after 30 days.
 *
 * Why a log subscription and not a direct write from the functions: the records are already written (one
 * structured log line per action), so the order path gains no latency, no new failure mode and no S3 permission;
 * Firehose batches many records into one object, so the archive costs cents per million orders instead of one PUT
 * each.
 */
import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as firehose from 'aws-cdk-lib/aws-kinesisfirehose';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** The log lines that are audit records: what the gateway writes for each order action, kill-switch change and new session. */
export const AUDIT_MESSAGES = ['order action', 'kill switch', 'session renewed'] as const;

/** Compliance-mode retention: five years, counted in days with the leap days. */
export const AUDIT_RETENTION_DAYS = 5 * 365 + 2;
/** After this many days objects move to S3 Glacier Instant Retrieval (still readable in milliseconds). */
export const AUDIT_COLD_AFTER_DAYS = 30;

export const auditFilterPattern = (): logs.IFilterPattern =>
  logs.FilterPattern.any(...AUDIT_MESSAGES.map((message) => logs.FilterPattern.stringValue('$.message', '=', message)));

export interface AuditArchiveProps {
  /** Default AUDIT_RETENTION_DAYS (context `auditRetentionDays`). */
  retentionDays?: number;
}

export class AuditArchive extends Construct {
  readonly bucket: s3.Bucket;
  readonly stream: firehose.CfnDeliveryStream;
  /** What Firehose may do on the bucket: write objects (and the reads S3 needs for multipart uploads); no delete. */
  static readonly DELIVERY_ACTIONS = [
    's3:AbortMultipartUpload',
    's3:GetBucketLocation',
    's3:GetObject',
    's3:ListBucket',
    's3:ListBucketMultipartUploads',
    's3:PutObject',
  ];
  private readonly destination: logs.ILogSubscriptionDestination;

  constructor(scope: Construct, id: string, props: AuditArchiveProps = {}) {
    super(scope, id);
    const retentionDays = props.retentionDays ?? AUDIT_RETENTION_DAYS;
    this.bucket = new s3.Bucket(this, 'Bucket', {
      objectLockEnabled: true,
      // Compliance mode: nobody, the account's root included, can delete or shorten it before the date.
      objectLockDefaultRetention: s3.ObjectLockRetention.compliance(Duration.days(retentionDays)),
      versioned: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      lifecycleRules: [
        {
          id: 'cold-then-expire',
          transitions: [
            {
              storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL,
              transitionAfter: Duration.days(AUDIT_COLD_AFTER_DAYS),
            },
          ],
          // Once the lock has run out the records may go (the lock refuses any earlier delete).
          expiration: Duration.days(retentionDays + 1),
          noncurrentVersionExpiration: Duration.days(1),
        },
      ],
      // Locked objects outlive the stack anyway: a teardown leaves the bucket.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The L1 stream with its own role: the L2 would grant the role read-write (deletes included) on the bucket.
    const role = new iam.Role(this, 'DeliveryRole', {
      assumedBy: new iam.ServicePrincipal('firehose.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
      description: 'gtt-gateway audit archive: Firehose writes objects into the audit bucket (no delete)',
    });
    const deliveryPolicy = new iam.Policy(this, 'DeliveryPolicy', {
      statements: [
        new iam.PolicyStatement({
          actions: AuditArchive.DELIVERY_ACTIONS,
          resources: [this.bucket.bucketArn, this.bucket.arnForObjects('*')],
        }),
      ],
    });
    deliveryPolicy.attachToRole(role);
    this.stream = new firehose.CfnDeliveryStream(this, 'Stream', {
      deliveryStreamType: 'DirectPut',
      deliveryStreamEncryptionConfigurationInput: { keyType: 'AWS_OWNED_CMK' },
      extendedS3DestinationConfiguration: {
        bucketArn: this.bucket.bucketArn,
        roleArn: role.roleArn,
        bufferingHints: { intervalInSeconds: 300, sizeInMBs: 5 },
        // CloudWatch Logs delivers each batch gzip-compressed already: stored as it comes (read with zcat).
        compressionFormat: 'UNCOMPRESSED',
        prefix: 'audit/!{timestamp:yyyy}/!{timestamp:MM}/!{timestamp:dd}/',
        errorOutputPrefix: 'errors/!{firehose:error-output-type}/!{timestamp:yyyy}/!{timestamp:MM}/!{timestamp:dd}/',
      },
    });
    this.stream.node.addDependency(deliveryPolicy);
    NagSuppressions.addResourceSuppressions(deliveryPolicy, [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'The objects of the one audit bucket (Firehose names each object by time); no delete action is granted.',
        appliesTo: [{ regex: '/^Resource::<.*AuditBucket.*\\.Arn>\\/\\*$/g' }],
      },
    ]);
    // One role for every subscription: CloudWatch Logs may put records into this stream, nothing else.
    const logsRole = new iam.Role(this, 'LogsRole', {
      assumedBy: new iam.ServicePrincipal('logs.amazonaws.com', {
        conditions: {
          StringLike: {
            'aws:SourceArn': Stack.of(this).formatArn({
              service: 'logs',
              resource: 'log-group',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
      description: 'gtt-gateway audit archive: CloudWatch Logs puts the audit records into the Firehose stream',
    });
    logsRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['firehose:PutRecord', 'firehose:PutRecordBatch'],
        resources: [this.stream.attrArn],
      }),
    );
    // The stream by its ARN (an imported L2 stream would add an unused CIDR mapping to the template).
    this.destination = { bind: () => ({ arn: this.stream.attrArn, role: logsRole }) };
    NagSuppressions.addResourceSuppressions(this.bucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          'The audit archive is written only by its Firehose delivery stream (CloudTrail records who reads it); server access logs would need a second bucket with its own lock and retention for no audit value.',
      },
    ]);
  }

  /**
   * Sends a function's audit records (and only those) into the archive. The subscription is made in the log group's
   * own stack (the archive is in the gateway stack, the functions in the stacks after it): a stack refers only to the
   * stacks before it.
   */
  addLogGroup(id: string, logGroup: logs.ILogGroup): void {
    const scope = Stack.of(logGroup) === Stack.of(this) ? this : Stack.of(logGroup);
    new logs.SubscriptionFilter(scope, `${id}Audit`, {
      logGroup,
      destination: this.destination,
      filterPattern: auditFilterPattern(),
      filterName: 'gtt-gateway-audit',
    });
  }
}
