/**
 * An example of driving the functions from AWS workflows: a Step Functions state machine that places a GTT order
 * and lists the pending ones, and an EventBridge schedule that lists them every 15 minutes in market hours.
 * It is its own stack: deploy it only if you want the example.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import { EXAMPLE_ORDER } from '../../functions/base/schemas/examples.js';
import { buildWorkflowDefinition, type WorkflowFunctions } from '../workflow/workflow.js';

export interface WorkflowExampleStackProps extends StackProps {
  functions: WorkflowFunctions & { listPending: lambda.IFunction };
}

/** An input that places one GTT order (a buy of 1 M&M-EQ at 1500 when the price falls to 1490). */
export const EXAMPLE_INPUT = { order: { ...EXAMPLE_ORDER } };

/** The AWS CLI line that starts one execution; re-running it under the same name can never place twice. */
export const startExecutionCommand = (stateMachineArn: string, region: string): string =>
  `aws stepfunctions start-execution --region ${region} --state-machine-arn ${stateMachineArn} --name mm-dip-1 --input '${JSON.stringify(EXAMPLE_INPUT)}'`;

export class WorkflowExampleStack extends Stack {
  readonly stateMachine: sfn.StateMachine;

  constructor(scope: Construct, id: string, props: WorkflowExampleStackProps) {
    super(scope, id, props);
    const logGroup = new logs.LogGroup(this, 'StateMachineLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stateMachine = new sfn.StateMachine(this, 'PlaceAndList', {
      stateMachineName: 'gtt-gateway-place-and-list',
      definitionBody: sfn.DefinitionBody.fromChainable(buildWorkflowDefinition(this, props.functions)),
      tracingEnabled: true,
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: false },
    });

    // What a user needs to run it: the ARN, and a start-execution line with an example input (docs/how-to/step-functions-workflow.md).
    new CfnOutput(this, 'StateMachineArn', {
      value: this.stateMachine.stateMachineArn,
      description: 'The example state machine',
    });
    new CfnOutput(this, 'StartExecutionCommand', {
      value: startExecutionCommand(this.stateMachine.stateMachineArn, this.region),
      description:
        'Runs the example once; the execution name is the idempotency key (input: docs/workflow/input.schema.json)',
    });

    // Every 15 minutes, Monday to Friday, 09:30-15:15 IST (04:00-09:45 UTC, inside market hours 09:15-15:30): list
    // the pending orders.
    new events.Rule(this, 'PendingOrdersSchedule', {
      description: 'gtt-gateway example: list pending GTT orders during market hours',
      schedule: events.Schedule.cron({ minute: '0/15', hour: '4-9', weekDay: 'MON-FRI' }),
      targets: [
        new targets.LambdaFunction(props.functions.listPending, {
          event: events.RuleTargetInput.fromObject({}),
          retryAttempts: 2,
        }),
      ],
    });

    NagSuppressions.addResourceSuppressions(
      this.stateMachine,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            'CDK grants lambda:InvokeFunction on "<function ARN>:*" so the state machine can call the functions\' versions and aliases; the wildcard is inside the two named functions\' ARNs. The log-delivery actions of Step Functions support no resource-level permissions.',
        },
      ],
      true,
    );
  }
}
