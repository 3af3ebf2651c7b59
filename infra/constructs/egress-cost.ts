/**
 * What an egress setting costs at rest (no traffic), counted from a synthesized template: NAT instances by type,
 * their root volumes, NAT gateways, Elastic IPs and the NAT instances' status alarms. The prices are approximate
 * on-demand list prices in ap-south-1 (Mumbai), in USD, as read in 2026; they change, so check
 * https://aws.amazon.com/ec2/pricing/on-demand/ and https://aws.amazon.com/vpc/pricing/ before relying on them.
 * docs/explanation/egress.md shows these numbers; a test keeps the page and this file in step.
 */
export const PRICING_ASSUMPTIONS = {
  region: 'ap-south-1',
  /** A month of an always-on resource. */
  hoursPerMonth: 730,
  /** Linux on-demand, per hour. */
  instanceHourUsd: { 't4g.nano': 0.0045 } as Record<string, number>,
  /** Every public IPv4 address, in use or idle, on an instance or a NAT gateway (since February 2024). */
  publicIpv4HourUsd: 0.005,
  natGatewayHourUsd: 0.056,
  /** Per GB through a NAT gateway, on top of data transfer out (not part of the at-rest figure). */
  natGatewayPerGbUsd: 0.056,
  ebsGp3GbMonthUsd: 0.0912,
  /** A standard-resolution alarm, per month (the account's first 10 are free). */
  alarmMonthUsd: 0.1,
} as const;

export interface CostLine {
  item: string;
  count: number;
  monthlyUsd: number;
}

export interface CostAtRest {
  lines: CostLine[];
  monthlyUsd: number;
}

interface TemplateJson {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

export const costAtRest = (template: TemplateJson, prices = PRICING_ASSUMPTIONS): CostAtRest => {
  const resources = Object.values(template.Resources ?? {});
  const ofType = (type: string) => resources.filter((r) => r.Type === type);
  const lines: CostLine[] = [];
  const add = (item: string, count: number, monthlyEach: number) => {
    if (count > 0) lines.push({ item, count, monthlyUsd: round2(count * monthlyEach) });
  };

  const byType = new Map<string, number>();
  let volumeGib = 0;
  for (const instance of ofType('AWS::EC2::Instance')) {
    const type = String(instance.Properties?.InstanceType);
    byType.set(type, (byType.get(type) ?? 0) + 1);
    const mappings = (instance.Properties?.BlockDeviceMappings ?? []) as {
      Ebs?: { VolumeSize?: number; VolumeType?: string };
    }[];
    for (const mapping of mappings) {
      if (mapping.Ebs?.VolumeType !== 'gp3' || typeof mapping.Ebs.VolumeSize !== 'number')
        throw new Error(`no price for volume ${JSON.stringify(mapping)}`);
      volumeGib += mapping.Ebs.VolumeSize;
    }
  }
  for (const [type, count] of byType) {
    const hourly = prices.instanceHourUsd[type];
    if (hourly === undefined) throw new Error(`no price for instance type ${type}: add it to PRICING_ASSUMPTIONS`);
    add(`${type} instance (on-demand, $${hourly}/h)`, count, hourly * prices.hoursPerMonth);
  }
  if (volumeGib > 0)
    add(`gp3 root volume GiB ($${prices.ebsGp3GbMonthUsd}/GiB-month)`, volumeGib, prices.ebsGp3GbMonthUsd);
  add(
    `NAT gateway ($${prices.natGatewayHourUsd}/h, plus $${prices.natGatewayPerGbUsd}/GB processed)`,
    ofType('AWS::EC2::NatGateway').length,
    prices.natGatewayHourUsd * prices.hoursPerMonth,
  );
  add(
    `Elastic IP, public IPv4 ($${prices.publicIpv4HourUsd}/h)`,
    ofType('AWS::EC2::EIP').length,
    prices.publicIpv4HourUsd * prices.hoursPerMonth,
  );
  const ec2Alarms = ofType('AWS::CloudWatch::Alarm').filter((a) => a.Properties?.Namespace === 'AWS/EC2').length;
  add(`NAT instance status alarm ($${prices.alarmMonthUsd}/month)`, ec2Alarms, prices.alarmMonthUsd);

  return { lines, monthlyUsd: round2(lines.reduce((sum, line) => sum + line.monthlyUsd, 0)) };
};
