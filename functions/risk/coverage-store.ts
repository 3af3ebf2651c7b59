/**
 * The coverage settings (docs/explanation/coverage.md) in the events table: one item, partition `coverage`, sort key
 * `settings`, the settings as JSON. Written whole by `PUT /positions/coverage`, read by the route and each watcher
 * run. No item: coverage is off.
 */
import { type DynamoClient, dynamoDbClient, GetItemCommand, PutItemCommand } from '../base/aws/dynamo.js';
import type { CoverageSettings } from '../base/schemas/coverage.js';

/** The coverage partition of the events table (its grant, infra/constructs/table-grants.ts, names it). */
export const COVERAGE_PK = 'coverage';
const KEY = { pk: { S: COVERAGE_PK }, sk: { S: 'settings' } };

export const COVERAGE_OFF: CoverageSettings = { watch: false };

export class CoverageStore {
  private readonly client: DynamoClient;

  constructor(private readonly options: { tableName: string; endpoint?: string | undefined }) {
    this.client = dynamoDbClient(options.endpoint);
  }

  async get(): Promise<CoverageSettings> {
    const reply = await this.client.send(
      new GetItemCommand({ TableName: this.options.tableName, Key: KEY, ConsistentRead: true }),
    );
    const text = reply.Item?.settings?.S;
    return text ? (JSON.parse(text) as CoverageSettings) : COVERAGE_OFF;
  }

  async put(settings: CoverageSettings): Promise<void> {
    await this.client.send(
      new PutItemCommand({
        TableName: this.options.tableName,
        Item: { ...KEY, settings: { S: JSON.stringify(settings) } },
      }),
    );
  }
}
