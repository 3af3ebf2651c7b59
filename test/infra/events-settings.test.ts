/**
 * The lifecycle events' settings: the watcher's schedule and switch, the outbox forwarding, and the webhook and
 * notifyOn settings the synth refuses.
 */
import { App as CdkApp } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { GatewayStack } from '../../infra/stacks/gateway-stack.js';
import { actions, idOf, type Res, statementsByFunction, synth } from '../support/events-template.js';
import { gatewayTemplate } from '../support/gateway-template.js';

describe('settings', () => {
  it('-c watcherSchedule replaces the expression; a bad one fails the synth', () => {
    const t = gatewayTemplate(synth({ watcherSchedule: 'cron(* 9-23 ? * MON-FRI *)' }));
    t.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(* 9-23 ? * MON-FRI *)' });
    expect(() => synth({ watcherSchedule: 'every minute' })).toThrow(
      /watcherSchedule must be an EventBridge Scheduler cron\(\.\.\.\) or rate\(\.\.\.\)/,
    );
  });

  it('-c watcher=off leaves the watcher and its schedule out; the gateway still publishes (through the forwarder)', () => {
    const t = gatewayTemplate(synth({ watcher: 'off' }));
    expect(Object.keys(t.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('EventsGttWatcher'))).toBe(
      false,
    );
    expect(JSON.stringify(t.findResources('AWS::Scheduler::Schedule'))).not.toContain('GttWatcher');
    t.resourceCountIs('AWS::Events::EventBus', 1);
    expect(
      statementsByFunction(t)
        .get('EventsEventForwarder')!
        .some((s) => actions(s).includes('events:PutEvents')),
    ).toBe(true);
    // The EventForwarder's stream, and the SignalWorker's queue.
    t.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
  });

  it('forwards the outbox: the idempotency table streams new images to the EventForwarder, completed records only, failures reported per record', () => {
    const t = gatewayTemplate(synth({}));
    const table = idOf(t, 'AWS::DynamoDB::Table', 'IdempotencyTable');
    t.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [table, 'StreamArn'] },
      FunctionName: { Ref: Match.stringLikeRegexp('^EventsEventForwarder') },
      StartingPosition: 'TRIM_HORIZON',
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 100,
      MaximumRecordAgeInSeconds: 86_400,
      FilterCriteria: {
        Filters: [{ Pattern: JSON.stringify({ dynamodb: { NewImage: { status: { S: ['COMPLETED'] } } } }) }],
      },
    });
    // Its memory: the background size; the order functions' is the order size (docs/explanation/benchmarks.md#memory).
    const memory = (prefix: string) =>
      (Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith(prefix))![1] as Res)
        .Properties.MemorySize;
    expect(memory('EventsEventForwarder')).toBe(256);
    expect(memory('PlaceGTTOrder')).toBe(1024);
    expect(memory('GetPendingGTTOrder')).toBe(512);
    t.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: Match.stringLikeRegexp('^EventsEventForwarder') } }],
    });
  });

  it('-c watcher accepts on and off only; a bad watcherSchedule fails even with the watcher off', () => {
    expect(() => synth({ watcher: 'of' })).toThrow(/watcher must be on or off/);
    expect(() => synth({ watcher: 'off', watcherSchedule: 'cron(* 9-15 ? * MON-FRI *' })).toThrow(
      /watcherSchedule must be/,
    );
    const t = gatewayTemplate(synth({ watcher: 'on', watcherSchedule: 'rate(5 minutes)' }));
    t.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(5 minutes)',
      ScheduleExpressionTimezone: 'Asia/Kolkata',
    });
  });

  it('the props watcher and watcherSchedule win over the context keys', () => {
    const stack = (props: ConstructorParameters<typeof GatewayStack>[2]) =>
      Template.fromStack(
        new GatewayStack(
          new CdkApp({
            context: {
              'aws:cdk:bundling-stacks': [],
              egress: 'none',
              watcher: 'off',
              watcherSchedule: 'not an expression',
            },
          }),
          'Gateway',
          props,
        ),
      );
    const on = stack({ watcher: true, watcherSchedule: 'cron(* 9-23 ? * MON-FRI *)' });
    on.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(* 9-23 ? * MON-FRI *)' });
    expect(Object.keys(on.findResources('AWS::Lambda::Function')).some((id) => id.startsWith('EventsGttWatcher'))).toBe(
      true,
    );
    expect(() => stack({ watcher: true })).toThrow(/watcherSchedule must be/);
    expect(() => stack({ watcher: true, watcherSchedule: 'at(2026-01-01T09:00:00)' })).toThrow(
      /watcherSchedule must be/,
    );
  });

  it('refuses an http:// webhook, an unknown format, a Telegram format without a chat id, and a header without its secret', () => {
    expect(() => synth({ notifyWebhookUrl: 'http://example.com/hook' })).toThrow(
      /notifyWebhookUrl must be an https:\/\/ URL/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'discord' })).toThrow(
      /notifyWebhookFormat must be one of event, slack, telegram/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookFormat: 'telegram' })).toThrow(
      /notifyTelegramChatId/,
    );
    expect(() => synth({ notifyWebhookUrl: 'https://example.com/hook', notifyWebhookHeader: 'X-Token' })).toThrow(
      /go together/,
    );
  });

  it('refuses a notifyOn name that is no detail-type, with one line listing them', () => {
    expect(() =>
      synth({ notifyWebhookUrl: 'https://example.com/hook', notifyOn: 'GTT Triggered,Order Filed' }),
    ).toThrow(
      /^notifyOn names no detail-type "Order Filed": use a comma-separated list of GTT Placed, GTT Modified, .*Kill Switch, Risk Limit Hit, Order Filled, Order Rejected, Order Cancelled, Plan Armed, Plan Step, Plan Done, Plan Failed, Plan Unprotected, Signal Received, Signal Acted, Signal Refused, Assistant Action, Position Unprotected \(or all\)$/,
    );
  });
});
