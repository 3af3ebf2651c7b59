/**
 * The project's DynamoDB tables share one shape: on-demand, one string partition key (and maybe a string sort key), a TTL attribute, AWS-managed
 * encryption, point-in-time recovery unless the data lives minutes, and removed with the stack (everything in them
 * expires anyway).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

export const expiringTable = (
  scope: Construct,
  id: string,
  props: {
    partitionKey: string;
    sortKey?: string;
    timeToLiveAttribute: string;
    pointInTimeRecovery: boolean;
    /** A stream of the items' new images (the idempotency table's, for the outbox's EventForwarder). */
    stream?: dynamodb.StreamViewType;
  },
): dynamodb.Table =>
  new dynamodb.Table(scope, id, {
    partitionKey: { name: props.partitionKey, type: dynamodb.AttributeType.STRING },
    ...(props.sortKey ? { sortKey: { name: props.sortKey, type: dynamodb.AttributeType.STRING } } : {}),
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: props.timeToLiveAttribute,
    ...(props.pointInTimeRecovery ? { pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true } } : {}),
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: RemovalPolicy.DESTROY,
    ...(props.stream ? { stream: props.stream } : {}),
  });
