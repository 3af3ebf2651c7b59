/**
 * The account's copy of the instruments' rules (docs/explanation/exchange-rules.md, "The copy"): one DynamoDB item per instrument
 * (partition key `pk` = `EXCH|TSYM`, TTL on `expiresAt`), shared by every container of the deployment.
 *
 * - `day` and the instrument's own rules (`token`, `tick`, `lot`, `precision`) with where they came from (`from`:
 *   the symbol master or SearchScrip), India's calendar day they were read on;
 * - `marketDay` and the market's rules of that day: today's band (`lc`, `uc`, absent when the broker gives none) and
 *   the freeze quantity (`freeze`, absent likewise), read from GetQuotes and GetSecurityInfo at `marketAt`.
 *
 * Only today's items are used (rules.ts): a previous day's item is a miss. The scheduled refresh (refresh.ts) writes
 * the master's rows (BatchWriteItem, master-load.ts: kept out of the order functions' bundles) and the band and freeze of the account's symbols in use; the order path writes
 * an item it had to read from the broker (UpdateItem), so no other container reads it again that day.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

import { type DynamoClient, dynamoDbClient, GetItemCommand, UpdateItemCommand } from '../../base/aws/dynamo.js';
import type { InstrumentRules } from '../../base/broker/instruments.js';
import type { PriceBand } from '../../base/broker/market.js';
import type { RulesSource } from '../safety/market-rules.js';

/** Where an instrument's own rules came from. */
export type InstrumentSource = RulesSource['instrument'];

/** An instrument's item in the copy: the broker's rules on it, the day they are for, and today's band and freeze. */
export interface CopiedRules extends InstrumentRules {
  day: string;
  from: InstrumentSource;
  market?: {
    day: string;
    band?: PriceBand | undefined;
    freeze?: number | undefined;
    at: string;
  };
}

/** Items outlive their day by a day (TTL deletes within about two days more): the copy never grows. */
const KEEP_SECONDS = 2 * 86_400;

export const keyOf = (exch: string, tsym: string): Record<string, AttributeValue> => ({ pk: { S: `${exch}|${tsym}` } });

export const expiresAt = (now: number): AttributeValue => ({ N: String(Math.floor(now / 1000) + KEEP_SECONDS) });

const rulesOf = (item: Record<string, AttributeValue>): CopiedRules | undefined => {
  const [exch, ...rest] = (item.pk?.S ?? '').split('|');
  const lot = Number(item.lot?.N);
  const precision = Number(item.precision?.N);
  if (!exch || !item.token?.S || !item.tick?.S || !item.day?.S || !(lot > 0) || !(precision >= 0)) return undefined;
  const freeze = item.freeze?.N === undefined ? undefined : Number(item.freeze.N);
  return {
    exch,
    tsym: rest.join('|'),
    token: item.token.S,
    tick: item.tick.S,
    lot,
    precision,
    day: item.day.S,
    from: item.from?.S === 'SearchScrip' ? 'SearchScrip' : 'symbol master',
    ...(item.marketDay?.S
      ? {
          market: {
            day: item.marketDay.S,
            band: item.lc?.S && item.uc?.S ? { lc: item.lc.S, uc: item.uc.S } : undefined,
            freeze,
            at: item.marketAt?.S ?? '',
          },
        }
      : {}),
  };
};

export class InstrumentCopy {
  readonly client: DynamoClient;

  constructor(readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  /** The instrument's item, whatever its day (an eventually consistent read: a miss only costs a broker read). */
  async get(exch: string, tsym: string): Promise<CopiedRules | undefined> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: keyOf(exch, tsym) }),
    );
    return reply.Item ? rulesOf(reply.Item) : undefined;
  }

  /** Writes an instrument's rules, and its market's when given (one UpdateItem; a market left out is removed). */
  async save(rules: CopiedRules, now = Date.now()): Promise<void> {
    const values: Record<string, AttributeValue> = {
      ':token': { S: rules.token },
      ':tick': { S: rules.tick },
      ':lot': { N: String(rules.lot) },
      ':precision': { N: String(rules.precision) },
      ':day': { S: rules.day },
      ':from': { S: rules.from },
      ':expiresAt': expiresAt(now),
    };
    const set = ['#token = :token', 'tick = :tick', 'lot = :lot', '#precision = :precision', '#day = :day'];
    set.push('#from = :from', 'expiresAt = :expiresAt');
    const remove: string[] = [];
    const market = rules.market;
    if (market) {
      values[':marketDay'] = { S: market.day };
      values[':marketAt'] = { S: market.at };
      set.push('marketDay = :marketDay', 'marketAt = :marketAt');
      if (market.band) {
        values[':lc'] = { S: market.band.lc };
        values[':uc'] = { S: market.band.uc };
        set.push('lc = :lc', 'uc = :uc');
      } else remove.push('lc', 'uc');
      if (market.freeze !== undefined) {
        values[':freeze'] = { N: String(market.freeze) };
        set.push('freeze = :freeze');
      } else remove.push('freeze');
    } else remove.push('marketDay', 'marketAt', 'lc', 'uc', 'freeze');
    await this.client.send(
      new UpdateItemCommand({
        TableName: this.options.tableName,
        Key: keyOf(rules.exch, rules.tsym),
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        // Reserved words of DynamoDB's expressions.
        ExpressionAttributeNames: { '#token': 'token', '#precision': 'precision', '#day': 'day', '#from': 'from' },
        ExpressionAttributeValues: values,
      }),
    );
  }
}

/** The copy of a deployment that names its table (the handler files of the order functions give this factory). */
export const dynamoInstrumentCopy = (config: {
  instrumentsTableName: string;
  dynamodbEndpoint?: string | undefined;
}): InstrumentCopy => new InstrumentCopy({ tableName: config.instrumentsTableName, endpoint: config.dynamodbEndpoint });
