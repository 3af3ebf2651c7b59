/**
 * The end-of-day logout in the stack: on by default at 16:00 India time on weekdays (after NSE's close), a cron of
 * the deployment's own (MCX's late session), or off; it runs where the other functions do, may write the session
 * secret (to mark it logged out) and read nothing else, and its schedule's role invokes only it.
 */
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';

import { buildApp } from '../../infra/stacks/app.js';
import { gatewayTemplate, nagFindingsOf } from '../support/gateway-template.js';

const synth = (context: Record<string, unknown> = {}) =>
  buildApp(new App({ context: { 'aws:cdk:bundling-stacks': [], watcher: 'off', ...context } }));
type Res = { Type: string; Properties: Record<string, unknown> };
const functionsOf = (t: Template) => Object.entries(t.findResources('AWS::Lambda::Function')) as [string, Res][];
const logoutSchedule = (t: Template) =>
  (Object.values(t.findResources('AWS::Scheduler::Schedule')) as Res[]).find((s) =>
    JSON.stringify(s.Properties.Target).includes('SessionLogout'),
  );

describe('the end-of-day logout', () => {
  it('is on by default: 16:00 India time on weekdays, exactly on time, in the gateway functions subnets', () => {
    const built = synth({ egress: 'nat-instance' });
    const t = gatewayTemplate(built);
    const schedule = logoutSchedule(t)!;
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'cron(0 16 ? * MON-FRI *)',
      ScheduleExpressionTimezone: 'Asia/Kolkata',
      FlexibleTimeWindow: { Mode: 'OFF' },
    });
    const fns = functionsOf(t);
    const logout = fns.find(([id]) => /^SessionSessionLogoutFunction/.test(id))![1];
    const place = fns.find(([id]) => /^PlaceGTTOrderFunction/.test(id))![1];
    expect(logout.Properties.VpcConfig).toEqual(place.Properties.VpcConfig);
    expect(nagFindingsOf(built.gatewayStacks)).toEqual([]);
  }, 120_000);

  it('its role writes the session secret (the logged-out mark) and reads no credential secret', () => {
    const t = gatewayTemplate(synth({ egress: 'none' }));
    const policies = Object.values(t.findResources('AWS::IAM::Policy')) as {
      Properties: {
        Roles: { Ref: string }[];
        PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] };
      };
    }[];
    const mine = policies.filter((p) => p.Properties.Roles.some((r) => /^SessionSessionLogoutRole/.test(r.Ref)));
    const actions = mine.flatMap((p) =>
      p.Properties.PolicyDocument.Statement.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])),
    );
    expect(actions).toContain('secretsmanager:PutSecretValue');
    expect(JSON.stringify(mine)).not.toMatch(/OAuthApp|Login[A-Z0-9]/);
  });

  it('takes a cron of its own (MCX until 23:30), or off; anything else fails the synth with one line', () => {
    expect(
      logoutSchedule(gatewayTemplate(synth({ egress: 'none', endOfDayLogout: 'cron(45 23 ? * MON-FRI *)' })))!
        .Properties.ScheduleExpression,
    ).toBe('cron(45 23 ? * MON-FRI *)');
    const off = gatewayTemplate(synth({ egress: 'none', endOfDayLogout: 'off' }));
    expect(logoutSchedule(off)).toBeUndefined();
    expect(functionsOf(off).filter(([id]) => id.includes('SessionLogout'))).toEqual([]);
    expect(() => synth({ egress: 'none', endOfDayLogout: 'at 4pm' })).toThrow(
      /endOfDayLogout must be on, off or a cron/,
    );
  });
});
