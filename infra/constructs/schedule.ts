/**
 * EventBridge Scheduler targets of the scheduled functions (the session functions, the GttWatcher): the Lambda
 * target whose role may invoke the one function only, and the scheduled runs' retries.
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';

/** Scheduled runs: a few retries within ten minutes, so a late run cannot land after the market opens. */
export const SCHEDULE_RETRY = { retryAttempts: 2, maxEventAge: Duration.minutes(10) };

/**
 * LambdaInvoke, but the scheduler role may invoke the function's unqualified ARN only: the stock target grants
 * `<arn>:*` too (every version and alias), which the schedule never calls.
 */
export class InvokeThisFunctionOnly extends targets.LambdaInvoke {
  constructor(
    private readonly target: lambda.IFunction,
    props: targets.ScheduleTargetBaseProps,
  ) {
    super(target, props);
  }

  protected override addTargetActionToRole(role: iam.IRole): void {
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.target.functionArn] }),
    );
  }
}
