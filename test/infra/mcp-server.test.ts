/**
 * The remote MCP function in the default stack: `POST /mcp` unsigned (its bearer token is the secret) and throttled
 * at the stage, with `ANY /mcp` beside it for the function's 405; its role invokes exactly the signed routes of its tools' operations (never `/assistants`, so an
 * assistant cannot change its own limits) and no other function's role invokes the API at all.
 */
import { describe, expect, it } from 'vitest';

import { ROUTES } from '../../functions/manifest/index.js';
import { MCP_SERVER } from '../../functions/mcp/definition.js';
import { MCP_ROUTE_THROTTLE } from '../../functions/mcp/routes.js';
import { TOOL_OPERATIONS } from '../../mcp/operations.js';
import { actions, gateway, type Statement, statementsOf, useDefaultStacks } from '../support/stacks-template.js';

useDefaultStacks();

type Policy = { Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } } };

/** `arn:…:execute-api:…:<api>/$default/POST/gtt-orders/*` as `POST /gtt-orders/*` (the Fn::Join's literal tail). */
const routeOf = (resource: unknown): string => {
  const parts = (resource as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  const tail = parts.filter((p): p is string => typeof p === 'string').join('');
  const [, method, path] = /\/\$default\/([A-Z]+)(\/.*)$/.exec(tail) ?? [];
  return `${method} ${path}`;
};

describe('the remote MCP function', () => {
  it('is POST /mcp without an authorizer, with its own throttle', () => {
    const routes = gateway.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: 'POST /mcp' } });
    const [route] = Object.values(routes) as { Properties: { AuthorizationType?: string } }[];
    expect(route?.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    const stage = Object.values(gateway.findResources('AWS::ApiGatewayV2::Stage'))[0] as {
      Properties: { RouteSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> };
    };
    expect(stage.Properties.RouteSettings['POST /mcp']).toEqual({
      ThrottlingRateLimit: MCP_ROUTE_THROTTLE.rateLimit,
      ThrottlingBurstLimit: MCP_ROUTE_THROTTLE.burstLimit,
    });
  });

  it("has ANY /mcp beside it (the function's 405 for GET), same target, no authorizer, the same throttle", () => {
    const byKey = (key: string) =>
      Object.values(gateway.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: key } })) as {
        Properties: { AuthorizationType?: string; Target: unknown };
      }[];
    const [post] = byKey('POST /mcp');
    const [any] = byKey('ANY /mcp');
    expect(any?.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    expect(any?.Properties.Target).toEqual(post?.Properties.Target);
    const stage = Object.values(gateway.findResources('AWS::ApiGatewayV2::Stage'))[0] as {
      Properties: { RouteSettings: Record<string, unknown> };
    };
    expect(stage.Properties.RouteSettings['ANY /mcp']).toEqual(stage.Properties.RouteSettings['POST /mcp']);
    // Only the MCP route answers other methods itself: every other path keeps its methods' routes alone.
    const anyRoutes = Object.values(gateway.findResources('AWS::ApiGatewayV2::Route')).filter((r) =>
      String((r as { Properties: { RouteKey: string } }).Properties.RouteKey).startsWith('ANY '),
    );
    expect(anyRoutes).toHaveLength(1);
  });

  it("may invoke exactly its tools' signed routes, and no other function's role may invoke the API", () => {
    const policies = Object.entries(gateway.findResources('AWS::IAM::Policy')) as [string, Policy][];
    const invoking = policies.filter(([, p]) =>
      p.Properties.PolicyDocument.Statement.some((s) => actions(s).includes('execute-api:Invoke')),
    );
    // Besides it, only the console's signed-in trader (test/infra/console.test.ts) may invoke the API.
    expect(invoking.map(([id]) => id).sort()).toEqual([
      expect.stringMatching(/^ConsoleSignInTraderRole/),
      expect.stringMatching(/^McpServerRole/),
    ]);
    const statement = invoking
      .find(([id]) => id.startsWith('McpServerRole'))![1]
      .Properties.PolicyDocument.Statement.find((s) => actions(s).includes('execute-api:Invoke'))!;
    expect(actions(statement)).toEqual(['execute-api:Invoke']);
    const granted = (statement.Resource as unknown[]).map(routeOf).sort();
    const expected = TOOL_OPERATIONS.map((id) => {
      const route = ROUTES.find((r) => r.route.operationId === id)!.route;
      return `${route.method} ${route.path.replace(/\{\w+\}/g, '*')}`;
    }).sort();
    expect(granted).toEqual(expected);
    // Never the assistants' routes, and no strategy may be created or changed: reads of strategies only.
    expect(granted.join(' ')).not.toMatch(/assistants|(POST|PATCH|DELETE) \/strategies/);
    expect(MCP_SERVER.invokes).toEqual(TOOL_OPERATIONS);
  });

  it('reads and writes the events table with the three calls its code makes, and nothing else', () => {
    const mine = statementsOf(gateway).filter((s) => actions(s).some((a) => a.startsWith('dynamodb:')));
    const role = (Object.entries(gateway.findResources('AWS::IAM::Policy')) as [string, Policy][]).find(([id]) =>
      id.startsWith('McpServerRole'),
    )![1];
    const dynamo = role.Properties.PolicyDocument.Statement.filter((s) =>
      actions(s).some((a) => a.startsWith('dynamodb:')),
    );
    expect(mine.length).toBeGreaterThan(dynamo.length);
    expect(dynamo.flatMap(actions).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem']);
  });
});
